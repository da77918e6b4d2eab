import type { ExportStatus, ExportType } from '@app/domain/exports';
import type { RealmExportRecord } from '../application/realm-exports.ports.js';

/** A realm_exports row joined with its organization's string_id. */
export interface RealmExportRow {
  id: number;
  realm_id: number;
  string_id: string;
  acting_user_id: number | null;
  export_type: ExportType;
  status: ExportStatus;
  date_requested: Date;
  date_failed: Date | null;
  date_deleted: Date | null;
  export_path: string | null;
  attempts: number;
}

export const EXPORT_COLUMNS = `e.id, e.realm_id, r.string_id, e.acting_user_id, e.export_type, e.status, e.date_requested, e.date_failed,
  e.date_deleted, e.export_path, e.attempts`;

export const toRecord = (r: RealmExportRow): RealmExportRecord => ({
  id: r.id,
  realmId: r.realm_id,
  realmStringId: r.string_id,
  actingUserId: r.acting_user_id,
  type: r.export_type,
  status: r.status,
  dateRequested: r.date_requested,
  dateFailed: r.date_failed,
  dateDeleted: r.date_deleted,
  // Only a succeeded export's archive is there to download.
  exportPath: r.status === 'succeeded' ? r.export_path : null,
  attempts: r.attempts,
});
