import { Injectable } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { ServerConfig } from '../../shared/config/server-config.js';
import { type MailMessage, MailTransport, type TransportOutcome } from '../application/email-delivery.ports.js';

/** What nodemailer puts on its errors (SMTP reply code and text, or a connection-level code). */
interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/**
 * SMTP through nodemailer, from SMTP_URL (`smtp://user:pass@host:port` with STARTTLS when the
 * server offers it, `smtps://…` for TLS from the start). One connection per message: a worker
 * sends one message at a time, and a broken connection never carries over to the next row.
 */
@Injectable()
export class SmtpMailTransport extends MailTransport {
  private transporter: Transporter | null = null;

  constructor(private readonly config: ServerConfig) {
    super();
  }

  async send(m: MailMessage): Promise<TransportOutcome> {
    try {
      const info = await this.smtp().sendMail({
        from: m.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        ...(m.html === null ? {} : { html: m.html }),
        messageId: m.messageId,
      });
      return { kind: 'sent', response: String(info.response ?? '') };
    } catch (e) {
      return classify(e as SmtpError);
    }
  }

  close(): void {
    this.transporter?.close();
    this.transporter = null;
  }

  private smtp(): Transporter {
    if (this.transporter === null) {
      const timeout = this.config.emailSendTimeoutMs;
      this.transporter = createTransport({ url: this.config.smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
    }
    return this.transporter;
  }
}

/** Failures nodemailer finds before any server answers, which no retry can fix (a malformed address, a bad setting). */
const UNSENDABLE = new Set(['EENVELOPE', 'ECONFIG', 'ENOAUTH']);

/**
 * A 5xx reply is permanent; a 4xx reply, or no reply at all (refused, lost or timed-out
 * connection, TLS trouble), is temporary. Bad credentials (EAUTH with a 5xx reply) are
 * permanent through their reply code; an address nodemailer cannot send to at all is too.
 */
export function classify(e: SmtpError): TransportOutcome {
  const error = (e.response ?? e.message ?? String(e)).trim() || 'unknown SMTP error';
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) return { kind: 'permanent', error };
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return { kind: 'temporary', error };
  const described = e.code ? `${e.code}: ${e.message ?? ''}`.trim() : error;
  return { kind: e.code !== undefined && UNSENDABLE.has(e.code) ? 'permanent' : 'temporary', error: described };
}
