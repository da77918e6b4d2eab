import { LIMITS } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, NotFoundException, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PublicImageStorage } from '../../shared/application/images.js';
import { CurrentActor, Public, SessionCookieAccepted } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { AcceptsFiles, type ReceivedFiles, UploadedBody } from '../../shared/http/multipart-body.interceptor.js';
import { INTEGER_SEGMENT } from '../../shared/http/path-params.js';
import { redirectWithQuery, servePng } from '../../shared/http/public-images.js';
import { ApiPost } from '../../shared/http/routes.js';
import { AvatarsService } from '../application/avatars.service.js';

const MiB = 1024 * 1024;

/** Zulip's user avatars: POST/DELETE /users/me/avatar, the /avatar redirects and the stored files. */
@Controller()
export class AvatarsController {
  constructor(
    private readonly avatars: AvatarsService,
    private readonly storage: PublicImageStorage,
  ) {}

  /** Any user or bot of the organization (Zulip's set_avatar_backend has no role decorator). */
  @ApiPost('api/v1/users/me/avatar')
  @AcceptsFiles(() => ({ maxFiles: 1, maxFileBytes: LIMITS.maxAvatarFileSizeMib * MiB }))
  async upload(@CurrentActor() actor: Actor, @UploadedBody() body: ReceivedFiles) {
    const files = body.files.map((f) => ({ tempPath: f.path, size: f.size, contentType: f.mimeType ?? '', originalName: f.originalName ?? '' }));
    return { avatar_url: await this.avatars.setAvatar(actor, files, body.overflow) };
  }

  @Delete('api/v1/users/me/avatar')
  async remove(@CurrentActor() actor: Actor) {
    return { avatar_url: await this.avatars.deleteAvatar(actor) };
  }

  /** With HTTP Basic, or in the browser with the session cookie alone (as images are loaded). */
  @Get('avatar/:email_or_id')
  @SessionCookieAccepted()
  @RawResponse()
  async avatar(@CurrentActor() actor: Actor, @Param('email_or_id') emailOrId: string, @Req() req: Request, @Res() res: Response) {
    redirectWithQuery(res, await this.avatars.avatarOf(actor, emailOrId, false), req.originalUrl);
  }

  @Get('avatar/:email_or_id/medium')
  @SessionCookieAccepted()
  @RawResponse()
  async avatarMedium(@CurrentActor() actor: Actor, @Param('email_or_id') emailOrId: string, @Req() req: Request, @Res() res: Response) {
    redirectWithQuery(res, await this.avatars.avatarOf(actor, emailOrId, true), req.originalUrl);
  }

  /** An uploaded avatar's file: public, as Zulip serves /user_avatars (its name is an unguessable token). */
  @Get('user_avatars/:realm_id/:file_name')
  @Public()
  @RawResponse()
  async file(@Param('realm_id') realmId: string, @Param('file_name') fileName: string, @Res() res: Response) {
    if (!INTEGER_SEGMENT.test(realmId) || !/^[0-9a-f]{40}(-medium)?\.png$/.test(fileName)) throw new NotFoundException();
    await servePng(res, this.storage.localPath(`${realmId}/${fileName}`), 'public, max-age=31536000, immutable');
  }
}
