import { presentExport } from '@app/domain/exports';
import type { ClientEvent } from '../../shared/application/client-event.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { ServerConfig } from '../../shared/config/server-config.js';
import type { RealmExportRecord } from './realm-exports.ports.js';

/** Where an archive is downloaded: its path under the organization's address (Zulip's export_url). */
export const exportUrl = (config: ServerConfig, e: Pick<RealmExportRecord, 'realmStringId' | 'exportPath'>): string | null =>
  e.exportPath === null ? null : `${config.realmUrl(e.realmStringId)}/user_avatars/${e.exportPath}`;

export const presentExports = (config: ServerConfig, list: readonly RealmExportRecord[]): Record<string, unknown>[] =>
  list.map((e) => presentExport(e, exportUrl(config, e)));

/** Zulip's notify_realm_export: every export of the organization, for its administrators. */
export async function realmExportEvent(tx: Tx, config: ServerConfig, realmId: number): Promise<ClientEvent> {
  const exports = presentExports(config, await tx.realmExports.list(realmId));
  return { realmId, event: { type: 'realm_export', exports }, userIds: await tx.realmExports.adminIds(realmId) };
}
