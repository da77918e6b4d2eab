import { assertCanDeleteExport, assertCanRequestExport, EXPORT_LIMIT_WINDOW_DAYS, parseExportType } from '@app/domain/exports';
import { DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { presentExports, realmExportEvent } from './realm-export.views.js';
import { RealmExportRunner } from './realm-export.runner.js';
import { type ExportConsent, ExportFiles, RealmExportQueries } from './realm-exports.ports.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const fileNotFound = () => new DomainError('File not found', 'NOT_FOUND', 'not_found');

/** /export/realm (zerver/views/realm_export.py): organization administrators' data exports. */
@Injectable()
export class RealmExportsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: RealmExportQueries,
    private readonly files: ExportFiles,
    private readonly runner: RealmExportRunner,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
  ) {}

  /**
   * POST /export/realm: checks Zulip's limits, records the request and tells the
   * administrators (a pending export); the archive is written by the export worker, started
   * here right after the commit (and by any server process's worker if this one stops first).
   */
  async requestExport(actor: Actor, rawType: string | undefined): Promise<number> {
    const type = parseExportType(rawType);
    const now = this.clock.now();
    const id = await this.uow.run(async (tx) => {
      await tx.realmExports.lockRequests(actor.realmId);
      const facts = await tx.realmExports.requestFacts(actor.realmId, type, new Date(now.getTime() - EXPORT_LIMIT_WINDOW_DAYS * DAY_MS));
      assertCanRequestExport({ ...facts, type, supportEmail: this.config.ownerEmail });
      const exportId = await tx.realmExports.insert({ realmId: actor.realmId, actingUserId: actor.userId, type, now });
      tx.afterCommit([await realmExportEvent(tx, this.config, actor.realmId)]);
      return exportId;
    });
    this.runner.startSoon(id);
    return id;
  }

  /** GET /export/realm. */
  async listExports(actor: Actor): Promise<Record<string, unknown>[]> {
    return this.uow.run(async (tx) => presentExports(this.config, await tx.realmExports.list(actor.realmId)));
  }

  /** DELETE /export/realm/{export_id}: the archive is removed once the row says so (a failed removal leaves an orphan file, never a dangling link). */
  async deleteExport(actor: Actor, id: number): Promise<void> {
    const path = await this.uow.run(async (tx) => {
      const row = await tx.realmExports.getForUpdate(actor.realmId, id);
      assertCanDeleteExport(row?.status ?? null);
      await tx.realmExports.markDeleted(id, this.clock.now());
      tx.afterCommit([await realmExportEvent(tx, this.config, actor.realmId)]);
      return row!.exportPath;
    });
    if (path !== null) await this.files.remove(path).catch(() => undefined);
  }

  /** GET /export/realm/consents: the active human users' allow_private_data_export. */
  consents(actor: Actor): Promise<ExportConsent[]> {
    return this.queries.consents(actor.realmId);
  }

  /** The archive at `path` (under the uploads directory), for an administrator of its organization. */
  async download(actor: Actor, path: string): Promise<{ file: string; name: string }> {
    const found = await this.queries.succeededByPath(actor.realmId, path);
    if (found === null) throw fileNotFound();
    return { file: this.files.absolute(path), name: path.split('/').pop() ?? path };
  }
}
