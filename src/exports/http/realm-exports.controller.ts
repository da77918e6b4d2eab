import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentActor, Require, SessionCookieAccepted } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RealmExportsService } from '../application/realm-exports.service.js';
import { RequestExportDto } from './realm-exports.dto.js';

/** Organization data exports (zerver/views/realm_export.py): organization administrators only. */
@Controller()
export class RealmExportsController {
  constructor(private readonly exports: RealmExportsService) {}

  @ApiPost('api/v1/export/realm')
  @Require('admin')
  async request(@CurrentActor() actor: Actor, @ZulipParams() p: RequestExportDto) {
    return { id: await this.exports.requestExport(actor, p.export_type) };
  }

  @Get('api/v1/export/realm')
  @Require('admin')
  async list(@CurrentActor() actor: Actor) {
    return { exports: await this.exports.listExports(actor) };
  }

  @Get('api/v1/export/realm/consents')
  @Require('admin')
  async consents(@CurrentActor() actor: Actor) {
    const consents = await this.exports.consents(actor);
    return {
      export_consents: consents.map((c) => ({ user_id: c.userId, consented: c.consented, email_address_visibility: c.emailAddressVisibility })),
    };
  }

  @Delete('api/v1/export/realm/:export_id')
  @Require('admin')
  async remove(@CurrentActor() actor: Actor, @Param('export_id', PathIntPipe) id: number) {
    await this.exports.deleteExport(actor, id);
    return {};
  }

  /**
   * The archive at its export_url (Zulip's local upload backend serves it under
   * /user_avatars/exports/): with HTTP Basic, or in the browser with the session cookie alone,
   * for the administrators of its organization; anyone else's request reads as a missing file.
   */
  @Get('user_avatars/exports/:realm_id/:key/:name')
  @SessionCookieAccepted()
  @Require('admin')
  @RawResponse()
  async download(
    @CurrentActor() actor: Actor,
    @Param('realm_id') realmId: string,
    @Param('key') key: string,
    @Param('name') name: string,
    @Res() res: Response,
  ) {
    const { file, name: fileName } = await this.exports.download(actor, `exports/${realmId}/${key}/${name}`);
    const size = (await stat(file).catch(() => null))?.size;
    if (size === undefined) throw new DomainError('File not found', 'NOT_FOUND', 'not_found');
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
    res.setHeader('Content-Length', String(size));
    createReadStream(file).on('error', () => res.status(404).end()).pipe(res);
  }
}
