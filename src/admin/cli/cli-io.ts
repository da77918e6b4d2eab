import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** A failure the command reports (exit code 1) without a stack trace. */
export class CliFailure extends Error {}

/** Reads all of a non-interactive stdin; the password is its first line. */
async function firstLineOf(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) text += String(chunk);
  return text.split(/\r?\n/)[0];
}

/** Asks on the terminal without echoing what is typed. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let value = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chars: string) => {
      for (const ch of chars) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new CliFailure('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * A new password: typed twice on a terminal, else the first line of stdin. Never from the
 * command line, where other users of the machine (`ps`) and the shell history would see it.
 */
export async function readNewPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const password = await firstLineOf(process.stdin);
    if (password === '') throw new CliFailure('no password on stdin (give it as the first line)');
    return password;
  }
  const first = await promptHidden('New password: ');
  const again = await promptHidden('New password (again): ');
  if (first !== again) throw new CliFailure('the passwords do not match');
  return first;
}

/** A writer that buffers small writes and waits for the destination to drain (bounded memory). */
export function bufferedWriter(out: Writable, limit = 64 * 1024): { write: (chunk: string) => Promise<void>; flush: () => Promise<void> } {
  let buffer = '';
  const flush = async () => {
    if (buffer === '') return;
    const data = buffer;
    buffer = '';
    if (!out.write(data)) await once(out, 'drain');
  };
  return {
    write: async (chunk) => {
      buffer += chunk;
      if (buffer.length >= limit) await flush();
    },
    flush,
  };
}

/** The export's destination: a file (created or truncated) or stdout. */
export async function openOutput(path: string | undefined): Promise<{ out: Writable; close: () => Promise<void> }> {
  if (path === undefined || path === '-') return { out: process.stdout, close: async () => undefined };
  const out = createWriteStream(path, { flags: 'w', mode: 0o600 });
  await once(out, 'open');
  return {
    out,
    close: async () => {
      out.end();
      await once(out, 'finish');
    },
  };
}

/**
 * The lines of a file (or of stdin for `-`), read as they are needed. The iterator is taken at
 * once: readline emits lines as soon as it reads, and lines emitted before anyone iterates are lost.
 */
export function inputLines(path: string): AsyncIterable<string> {
  const input = path === '-' ? process.stdin : createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  return { [Symbol.asyncIterator]: () => lines };
}
