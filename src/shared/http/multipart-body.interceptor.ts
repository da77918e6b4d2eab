import { type CallHandler, createParamDecorator, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ServerConfig } from '../config/server-config.js';
import { type FileLimits, type FileOverflow, readMultipart, type ReceivedFile, removeReceivedFiles } from './multipart.js';

const ACCEPTS_FILES = 'svc:accepts-files';
const RECEIVED_FILES = Symbol('received files');

type AcceptedFiles = (config: ServerConfig) => Omit<FileLimits, 'dir'>;

/**
 * The route takes files in its multipart body (any other route refuses them): at most
 * `maxFiles`, each at most `maxFileBytes`, written to UPLOAD_TEMP_DIR while the request lasts.
 */
export const AcceptsFiles = (limits: AcceptedFiles): MethodDecorator => SetMetadata(ACCEPTS_FILES, limits);

/** The files of the request's multipart body, or why there are none (see FileOverflow). */
export interface ReceivedFiles {
  files: ReceivedFile[];
  overflow: FileOverflow | null;
}

type RequestWithFiles = Request & { [RECEIVED_FILES]?: ReceivedFiles };

/** Injects the ReceivedFiles of an @AcceptsFiles route. */
export const UploadedBody = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ReceivedFiles => ctx.switchToHttp().getRequest<RequestWithFiles>()[RECEIVED_FILES] ?? { files: [], overflow: null },
);

/**
 * Reads multipart bodies after authentication (the guards have run): a request that may not
 * reach the route is answered without its body being read. Form-encoded and JSON bodies are
 * read before, by the bounded body parsers. The temporary files of a body are removed before
 * the answer goes out, whatever the answer.
 */
@Injectable()
export class MultipartBodyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: ServerConfig,
  ) {}

  /** Synchronous for every body that is not multipart (no promise per request). */
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<RequestWithFiles>();
    // No body (GET, HEAD...): nothing to read, not even a Content-Type to look at.
    if (req.headers['content-type'] === undefined || !req.is('multipart')) return next.handle();
    return this.readBody(ctx, req, next);
  }

  private async readBody(ctx: ExecutionContext, req: RequestWithFiles, next: CallHandler): Promise<Observable<unknown>> {
    const http = ctx.switchToHttp();
    const accepted = this.reflector.get<AcceptedFiles | undefined>(ACCEPTS_FILES, ctx.getHandler());
    const limits = accepted ? { ...accepted(this.config), dir: this.config.uploadTempDir } : null;
    const body = await readMultipart(req, http.getResponse<Response>(), limits);
    req.body = body.fields;
    req[RECEIVED_FILES] = { files: body.files, overflow: body.overflow };
    if (body.files.length === 0) return next.handle();
    return from(this.handleThenRemove(next, body.files));
  }

  private async handleThenRemove(next: CallHandler, files: readonly ReceivedFile[]): Promise<unknown> {
    try {
      return await lastValueFrom(next.handle(), { defaultValue: undefined });
    } finally {
      await removeReceivedFiles(files);
    }
  }
}
