import { tmpdir } from 'node:os';
import { MAX_EMOJI_FILE_SIZE_MIB } from '@app/domain/emoji';
import { badRequest } from '@app/domain/shared';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';

const MAX_FILES = 10;
const upload = multer({ dest: tmpdir(), limits: { fileSize: MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024, files: MAX_FILES } }).any();

/** The files of an emoji upload, and whether the body went past what the server reads. */
export interface EmojiUploadBody {
  files: Express.Multer.File[];
  /** A file larger than the emoji limit, or more files than are read. */
  overflow: 'size' | 'count' | null;
}

export const EMOJI_UPLOAD = 'emojiUpload';

/**
 * Reads the multipart body of an emoji upload into temporary files without judging it: the
 * number of files and their size are checked by the use case, in Zulip's order after the name
 * and the permission.
 */
@Injectable()
export class EmojiUploadInterceptor implements NestInterceptor {
  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<Request & { [EMOJI_UPLOAD]?: EmojiUploadBody }>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const overflow = await new Promise<EmojiUploadBody['overflow']>((resolve, reject) =>
      upload(req, res, (err: unknown) => {
        const code = (err as { code?: string } | undefined)?.code;
        if (!err) resolve(null);
        else if (code === 'LIMIT_FILE_SIZE') resolve('size');
        else if (code === 'LIMIT_FILE_COUNT') resolve('count');
        else reject(badRequest('Malformed payload'));
      }),
    );
    req[EMOJI_UPLOAD] = { files: overflow === null ? ((req.files as Express.Multer.File[] | undefined) ?? []) : [], overflow };
    return next.handle();
  }
}
