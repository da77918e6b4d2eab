import { tmpdir } from 'node:os';
import { LIMITS } from '@app/domain/realm';
import { badRequest } from '@app/domain/shared';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';

const upload = multer({ dest: tmpdir(), limits: { fileSize: LIMITS.maxFileUploadSizeMib * 1024 * 1024, files: 10 } }).any();

/**
 * Reads a multipart upload to temporary files after authentication, with Zulip's errors for
 * a missing file, several files and an oversized one.
 */
@Injectable()
export class UploadInterceptor implements NestInterceptor {
  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    await new Promise<void>((resolve, reject) =>
      upload(req, res, (err: unknown) => {
        const e = err as { code?: string } | undefined;
        if (e?.code === 'LIMIT_FILE_SIZE') {
          reject(badRequest(`Uploaded file is larger than the allowed limit of ${LIMITS.maxFileUploadSizeMib} MiB`));
        } else if (err) reject(badRequest('Malformed payload'));
        else resolve();
      }),
    );
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    if (files.length === 0) throw badRequest('You must specify a file to upload');
    if (files.length > 1) throw badRequest('You may only upload one file at a time');
    return next.handle();
  }
}
