import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { EmailDelivery } from '../../src/email/index.js';

/** One message the server accepted (or refused, see `attempts`). */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as sent (headers and body). */
  raw: string;
  /** Its headers, names lower-cased, folded lines joined. */
  headers: Record<string, string>;
  /** Its plain-text part, decoded. */
  text: string;
  /** Its HTML part, decoded (null: plain text only). */
  html: string | null;
  /** The AUTH user name the client logged in with, if any. */
  user: string | null;
}

/**
 * What the server answers to the end of a message: accept, an SMTP error reply, or nothing ever
 * (`hang`: the client waits; recorded in `attempts` with code 0).
 */
export type DataReply = 'accept' | 'hang' | { code: number; message: string };

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1, random port, no TLS, any login
 * accepted: it records every message whose DATA it accepted, and answers the next ones as told
 * by `replies` (a queue; empty: accept).
 */
export class SmtpTestServer {
  readonly received: ReceivedMail[] = [];
  /** Every DATA it got, accepted or not, with the reply code it gave. */
  readonly attempts: { to: string[]; code: number }[] = [];
  readonly replies: DataReply[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  /** `port` 0: any free port. */
  static async start(port = 0): Promise<SmtpTestServer> {
    const s = new SmtpTestServer();
    s.server = new SMTPServer({
      authOptional: true,
      closeTimeout: 1000,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, cb) => cb(null, { user: auth.username }),
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((a) => a.address);
          const reply = s.replies.shift() ?? 'accept';
          if (reply === 'hang') {
            s.attempts.push({ to, code: 0 });
            return;
          }
          if (reply !== 'accept') {
            s.attempts.push({ to, code: reply.code });
            const err = new Error(reply.message) as Error & { responseCode: number };
            err.responseCode = reply.code;
            cb(err);
            return;
          }
          s.attempts.push({ to, code: 250 });
          const raw = Buffer.concat(chunks).toString('utf8');
          const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
          s.received.push({ from, to, raw, ...parse(raw), user: typeof session.user === 'string' ? session.user : null });
          cb(null, 'Queued');
        });
      },
    });
    await new Promise<void>((resolve) => s.server!.listen(port, '127.0.0.1', () => resolve()));
    s.port = (s.server.server.address() as AddressInfo).port;
    return s;
  }

  /** `smtp://user:pass@127.0.0.1:<port>` */
  url(user = 'mailer', password = 'mail-secret'): string {
    return `smtp://${user}:${password}@127.0.0.1:${this.port}`;
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Headers (names lower-cased, folded lines joined) and body of a message or MIME part. */
function split(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = (at < 0 ? raw : raw.slice(0, at)).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
}

function decode(headers: Record<string, string>, body: string): string {
  const encoding = headers['content-transfer-encoding'] ?? '';
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
  }
  if (/base64/i.test(encoding)) return Buffer.from(body, 'base64').toString('utf8').replace(/\r\n/g, '\n');
  return body.replace(/\r\n/g, '\n');
}

/** The message's headers and its text and HTML parts (a single part, or multipart/alternative). */
function parse(raw: string): { headers: Record<string, string>; text: string; html: string | null } {
  const { headers, body } = split(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!/^multipart\//i.test(headers['content-type'] ?? '') || boundary === undefined) return { headers, text: decode(headers, body), html: null };
  let text = '';
  let html: string | null = null;
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = split(chunk.replace(/^\r\n/, '').replace(/\r\n$/, ''));
    const type = part.headers['content-type'] ?? 'text/plain';
    if (/^text\/html/i.test(type)) html = decode(part.headers, part.body);
    else if (/^text\/plain/i.test(type)) text = decode(part.headers, part.body);
  }
  return { headers, text, html };
}

/** Runs the app's email delivery until nothing is due (each call sends at most one row). */
export async function deliverAllEmail(app: { get(token: typeof EmailDelivery): EmailDelivery }): Promise<void> {
  while ((await app.get(EmailDelivery).deliverDue()) > 0);
}
