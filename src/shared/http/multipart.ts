import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '@app/domain/shared';
import busboy from 'busboy';
import type { Request, Response } from 'express';

const MiB = 1024 * 1024;

/**
 * What any request body may hold: the form-encoded and JSON parsers' size limit, and Django's
 * DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000), which Zulip keeps, for the number of parameters.
 */
export const BODY_LIMITS = {
  maxBodyBytes: 5 * MiB,
  maxFields: 1000,
  maxFieldBytes: 5 * MiB,
} as const;

/** The answers to a body past a limit, with 413 (Zulip has no text of its own: its proxy answers those). */
export const requestTooLarge = (): DomainError => new DomainError('Request entity too large', 'BAD_REQUEST', 'too_large');
export const tooManyParameters = (): DomainError => new DomainError('Too many parameters', 'BAD_REQUEST', 'too_large');
const unexpectedFile = (): DomainError => new DomainError('Malformed payload: files can be uploaded only to the upload endpoints');
const malformed = (): DomainError => new DomainError('Malformed payload');

/** Files a route takes: how many, how large each, and where they stay while the request lasts. */
export interface FileLimits {
  maxFiles: number;
  maxFileBytes: number;
  dir: string;
}

/** One file of a multipart body, in a temporary file that is removed when the request ends. */
export interface ReceivedFile {
  fieldName: string;
  originalName: string;
  mimeType: string;
  path: string;
  size: number;
}

/**
 * A file body past the route's limits: `size`, a file (or the whole body) larger than allowed;
 * `count`, more files than the route takes. Reading stopped there and no file is kept; the use
 * case reports it in its own words and order.
 */
export type FileOverflow = 'size' | 'count';

export interface MultipartBody {
  fields: Record<string, string | string[]>;
  files: ReceivedFile[];
  overflow: FileOverflow | null;
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/**
 * Reads one multipart body within `BODY_LIMITS` and, on a route that takes files, `files`.
 * Whatever goes past a limit stops the reading at once: the rest of the body is never read
 * (the response then closes the connection rather than draining it), every temporary file
 * already written is removed, and the refusal is thrown, or for files reported as `overflow`.
 * A file on a route that takes none is refused the same way.
 */
class MultipartReader {
  private readonly fields: Record<string, string | string[]> = Object.create(null);
  private readonly received: ReceivedFile[] = [];
  private readonly writing = new Set<Promise<void>>();
  private readonly streams = new Set<WriteStream>();
  private readonly maxBodyBytes: number;
  private parser: busboy.Busboy | null = null;
  private bodyBytes = 0;
  private settled = false;
  private resolve!: (body: MultipartBody) => void;
  private reject!: (err: Error) => void;

  constructor(
    private readonly req: Request,
    private readonly res: Response,
    private readonly files: FileLimits | null,
  ) {
    // Files are limited one by one, the rest of the body by the form limit.
    this.maxBodyBytes = BODY_LIMITS.maxBodyBytes + (files ? files.maxFiles * files.maxFileBytes : 0);
  }

  read(): Promise<MultipartBody> {
    const done = new Promise<MultipartBody>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    const declared = Number(this.req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      this.overflowOrRefuse('size', requestTooLarge);
      return done;
    }
    try {
      this.parser = busboy({
        headers: this.req.headers,
        defParamCharset: 'utf8',
        // busboy flags a value as truncated once it reaches the limit: one byte more is allowed.
        limits: { fields: BODY_LIMITS.maxFields, fieldSize: BODY_LIMITS.maxFieldBytes + 1, files: this.files?.maxFiles ?? 0 },
      });
    } catch {
      this.stop(malformed());
      return done;
    }
    this.listen(this.parser);
    this.req.pause();
    this.req.on('data', this.onData);
    this.req.on('end', this.onEnd);
    // A client that goes away mid-body: nothing to answer, but nothing may stay on disk.
    this.req.on('close', () => this.req.complete || this.stop(new Error('request closed before its body was complete')));
    const ready = this.files ? mkdir(this.files.dir, { recursive: true }) : Promise.resolve(undefined);
    ready.then(() => this.settled || this.req.resume(), (err: unknown) => this.stop(asError(err)));
    return done;
  }

  private listen(parser: busboy.Busboy): void {
    parser.on('field', (name, value, info) => {
      if (this.settled) return;
      if (info.valueTruncated || info.nameTruncated) return this.stop(requestTooLarge());
      const existing = this.fields[name];
      this.fields[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    });
    parser.on('fieldsLimit', () => this.stop(tooManyParameters()));
    parser.on('filesLimit', () => this.overflowOrRefuse('count', unexpectedFile));
    parser.on('file', (fieldName, stream, info) => {
      stream.on('error', () => undefined); // destroyed with the parser when reading stops
      // A part without a file name (a form's empty file input) is no file.
      if (this.settled || !this.files || !info.filename) return void stream.resume();
      this.receive(this.files, fieldName, stream, info);
    });
    parser.on('error', () => this.stop(malformed()));
    parser.on('close', () => {
      if (this.settled) return;
      Promise.all([...this.writing]).then(
        () => this.finish(),
        (err: unknown) => this.stop(asError(err)),
      );
    });
  }

  private receive(limits: FileLimits, fieldName: string, stream: Readable, info: busboy.FileInfo): void {
    const file: ReceivedFile = {
      fieldName,
      originalName: info.filename,
      mimeType: info.mimeType,
      path: join(limits.dir, randomBytes(16).toString('hex')),
      size: 0,
    };
    this.received.push(file);
    const out = createWriteStream(file.path, { flags: 'wx' });
    this.streams.add(out);
    const written = new Promise<void>((resolve, reject) => {
      out.on('close', () => (out.writableFinished ? resolve() : reject(new Error('upload not written'))));
      out.on('error', reject);
    });
    this.writing.add(written.finally(() => this.streams.delete(out)));
    stream.on('data', (chunk: Buffer) => {
      file.size += chunk.length;
      if (file.size > limits.maxFileBytes) this.stop('size');
    });
    stream.pipe(out);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.bodyBytes += chunk.length;
    if (this.bodyBytes > this.maxBodyBytes) return this.overflowOrRefuse('size', requestTooLarge);
    if (!this.parser!.write(chunk)) {
      this.req.pause();
      this.parser!.once('drain', () => this.settled || this.req.resume());
    }
  };

  private readonly onEnd = (): void => {
    this.parser!.end();
  };

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve({ fields: this.fields, files: this.received, overflow: null });
  }

  private overflowOrRefuse(overflow: FileOverflow, refusal: () => DomainError): void {
    this.stop(this.files ? overflow : refusal());
  }

  /** Stops reading, removes every temporary file, then answers (a refusal, or an overflow). */
  private stop(outcome: Error | FileOverflow): void {
    if (this.settled) return;
    this.settled = true;
    this.req.off('data', this.onData);
    this.req.off('end', this.onEnd);
    this.req.pause();
    if (!this.req.complete) this.res.setHeader('Connection', 'close');
    this.parser?.destroy();
    for (const s of this.streams) s.destroy();
    Promise.allSettled([...this.writing])
      .then(() => removeReceivedFiles(this.received))
      .then(
        () => (typeof outcome === 'string' ? this.resolve({ fields: this.fields, files: [], overflow: outcome }) : this.reject(outcome)),
        (err: unknown) => this.reject(asError(err)),
      );
  }
}

/** See MultipartReader: the body's fields and files, within the limits. */
export function readMultipart(req: Request, res: Response, files: FileLimits | null): Promise<MultipartBody> {
  return new MultipartReader(req, res, files).read();
}

/** Removes the request's temporary files (those a use case moved elsewhere are simply gone). */
export async function removeReceivedFiles(files: readonly ReceivedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}
