import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { MAX_EMOJI_FILE_SIZE_MIB } from '@app/domain/emoji';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentActor, Public, Require } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { INTEGER_SEGMENT } from '../../shared/http/path-params.js';
import { AcceptsFiles, type ReceivedFiles, UploadedBody } from '../../shared/http/multipart-body.interceptor.js';
import { ApiPost } from '../../shared/http/routes.js';
import { UPLOAD_CONTENT_SECURITY_POLICY } from '../../shared/http/served-content.js';
import { EmojiImageStorage } from '../application/realm-emoji.ports.js';
import { RealmEmojiService } from '../application/realm-emoji.service.js';
import { presentRealmEmojiMap } from '../application/realm-emoji.views.js';

/** `{emoji_name}` takes the rest of the path, slashes included, as Zulip's route does. */
const emojiName = (segments: string | string[]): string => (Array.isArray(segments) ? segments.join('/') : segments);

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

@Controller()
export class RealmEmojiController {
  constructor(
    private readonly emoji: RealmEmojiService,
    private readonly images: EmojiImageStorage,
  ) {}

  /** Any user or bot of the organization (the list is public to its members). */
  @Get('api/v1/realm/emoji')
  async list(@CurrentActor() actor: Actor) {
    return { emoji: presentRealmEmojiMap(await this.emoji.list(actor)) };
  }

  /** Zulip's require_member_or_admin: no guests, no bots. */
  @ApiPost('api/v1/realm/emoji/*emoji_name')
  @Require('member')
  @AcceptsFiles(() => ({ maxFiles: 1, maxFileBytes: MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 }))
  async upload(@CurrentActor() actor: Actor, @Param('emoji_name') name: string | string[], @UploadedBody() body: ReceivedFiles) {
    const files = body.files.map((f) => ({ tempPath: f.path, size: f.size, contentType: f.mimeType ?? '' }));
    await this.emoji.uploadEmoji(actor, emojiName(name), files, body.overflow);
    return {};
  }

  @Delete('api/v1/realm/emoji/*emoji_name')
  async remove(@CurrentActor() actor: Actor, @Param('emoji_name') name: string | string[]) {
    await this.emoji.deleteEmoji(actor, emojiName(name));
    return {};
  }

  /** The image at an emoji's source_url; public, as Zulip serves avatars and emoji. */
  @Get('user_avatars/:realm_id/emoji/images/:file_name')
  @Public()
  @RawResponse()
  async image(@Param('realm_id') realmId: string, @Param('file_name') fileName: string, @Res() res: Response) {
    const type = IMAGE_TYPES[fileName.split('.').pop() ?? ''];
    if (!INTEGER_SEGMENT.test(realmId) || type === undefined || !/^[0-9a-f]{8}\.[a-z]+$/.test(fileName)) throw new NotFoundException();
    const path = this.images.path(Number(realmId), fileName);
    const size = await stat(path).then((s) => s.size, () => null);
    if (size === null) throw new NotFoundException();
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Security-Policy', UPLOAD_CONTENT_SECURITY_POLICY);
    res.setHeader('Content-Length', String(size));
    res.setHeader('Cache-Control', 'public, max-age=31536000');
    createReadStream(path).on('error', () => res.status(404).end()).pipe(res);
  }
}
