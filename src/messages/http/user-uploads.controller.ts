import type { Actor } from '@app/domain/users';
import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RealmResolver } from '../../realm/index.js';
import { CurrentActor, Public, SessionCookieAccepted } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { UploadsService } from '../application/uploads.service.js';
import { sendStoredFile } from './stored-file-response.js';

/** Temporary URLs of uploads and thumbnails of uploaded images (zerver/views/upload.py). */
@Controller()
export class UserUploadsController {
  constructor(
    private readonly uploads: UploadsService,
    private readonly realmResolver: RealmResolver,
  ) {}

  /** Zulip's serve_file_url_backend: a URL that serves the upload without credentials for a minute. */
  @Get('api/v1/user_uploads/:realm_id/:bucket/:key/:name')
  async temporaryUrl(
    @CurrentActor() actor: Actor,
    @Param('realm_id') realmId: string,
    @Param('bucket') bucket: string,
    @Param('key') key: string,
    @Param('name') name: string,
  ) {
    return { url: await this.uploads.temporaryUrl(actor, `${realmId}/${bucket}/${key}/${name}`) };
  }

  /** Zulip's serve_file_unauthed_from_token: the token is the only credential. */
  @Get('user_uploads/temporary/:token/:filename')
  @Public()
  @RawResponse()
  async temporaryDownload(@Headers('host') host: string | undefined, @Param('token') token: string, @Param('filename') filename: string, @Res() res: Response) {
    const realmId = await this.realmResolver.resolve(host);
    const { attachment, file } = await this.uploads.temporaryDownload(realmId, token, filename);
    await sendStoredFile(res, file, attachment.name, attachment.size);
  }

  /** With HTTP Basic, or in the browser with the session cookie alone (thumbnails in messages), as the original. */
  @Get('user_uploads/thumbnail/:realm_id/:bucket/:key/:name/:format')
  @SessionCookieAccepted()
  @RawResponse()
  async thumbnail(
    @CurrentActor() actor: Actor,
    @Param('realm_id') realmId: string,
    @Param('bucket') bucket: string,
    @Param('key') key: string,
    @Param('name') name: string,
    @Param('format') format: string,
    @Headers('accept') accept: string | undefined,
    @Res() res: Response,
  ) {
    const served = await this.uploads.thumbnail(actor, `${realmId}/${bucket}/${key}/${name}`, format, accept);
    await sendStoredFile(res, served.file, served.name);
  }
}
