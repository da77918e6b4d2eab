import { LIMITS } from '@app/domain/realm';
import { DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, NotFoundException, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PublicImageStorage } from '../../shared/application/images.js';
import { CurrentActor, Public, Require } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { AcceptsFiles, type ReceivedFiles, UploadedBody } from '../../shared/http/multipart-body.interceptor.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { INTEGER_SEGMENT } from '../../shared/http/path-params.js';
import { redirectWithQuery, servePng } from '../../shared/http/public-images.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RealmBrandingService } from '../application/realm-branding.service.js';
import { LogoDto } from './realm-branding.dto.js';

const MiB = 1024 * 1024;

const filesOf = (body: ReceivedFiles) =>
  body.files.map((f) => ({ tempPath: f.path, size: f.size, contentType: f.mimeType ?? '', originalName: f.originalName ?? '' }));

/** Zulip's realm_icon and realm_logo views, and the stored images (public, as Zulip serves /user_avatars). */
@Controller()
export class RealmBrandingController {
  constructor(
    private readonly branding: RealmBrandingService,
    private readonly storage: PublicImageStorage,
  ) {}

  @ApiPost('api/v1/realm/icon')
  @Require('admin')
  @AcceptsFiles(() => ({ maxFiles: 1, maxFileBytes: LIMITS.maxIconFileSizeMib * MiB }))
  async uploadIcon(@CurrentActor() actor: Actor, @UploadedBody() body: ReceivedFiles) {
    return { icon_url: await this.branding.uploadIcon(actor, filesOf(body), body.overflow) };
  }

  @Delete('api/v1/realm/icon')
  @Require('admin')
  async deleteIcon(@CurrentActor() actor: Actor) {
    return { icon_url: await this.branding.deleteIcon(actor) };
  }

  /** Any user: a redirect to the icon (Zulip's get_icon_backend). */
  @Get('api/v1/realm/icon')
  @RawResponse()
  async icon(@CurrentActor() actor: Actor, @Req() req: Request, @Res() res: Response) {
    redirectWithQuery(res, await this.branding.iconUrl(actor), req.originalUrl);
  }

  @ApiPost('api/v1/realm/logo')
  @Require('admin')
  @AcceptsFiles(() => ({ maxFiles: 1, maxFileBytes: LIMITS.maxLogoFileSizeMib * MiB }))
  async uploadLogo(@CurrentActor() actor: Actor, @ZulipParams() p: LogoDto, @UploadedBody() body: ReceivedFiles) {
    await this.branding.uploadLogo(actor, p.night, filesOf(body), body.overflow);
    return {};
  }

  @Delete('api/v1/realm/logo')
  @Require('admin')
  async deleteLogo(@CurrentActor() actor: Actor, @ZulipParams() p: LogoDto) {
    await this.branding.deleteLogo(actor, p.night);
    return {};
  }

  /**
   * Any user: a redirect to the logo (Zulip's get_logo_backend). Without an uploaded logo there is
   * nothing here to redirect to (Zulip's default is a file of its own static assets): 404.
   */
  @Get('api/v1/realm/logo')
  @RawResponse()
  async logo(@CurrentActor() actor: Actor, @ZulipParams() p: LogoDto, @Req() req: Request, @Res() res: Response) {
    const url = await this.branding.logoUrl(actor, p.night);
    if (url === '') throw new DomainError('Not Found', 'NOT_FOUND', 'not_found');
    redirectWithQuery(res, url, req.originalUrl);
  }

  /** An uploaded icon or logo. */
  @Get('user_avatars/:realm_id/realm/:file_name')
  @Public()
  @RawResponse()
  async file(@Param('realm_id') realmId: string, @Param('file_name') fileName: string, @Res() res: Response) {
    if (!INTEGER_SEGMENT.test(realmId) || !/^(icon|logo|night_logo)\.png$/.test(fileName)) throw new NotFoundException();
    await servePng(res, this.storage.localPath(`${realmId}/realm/${fileName}`), 'public, max-age=86400');
  }
}
