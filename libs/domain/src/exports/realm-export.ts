import { badRequest } from '../shared/index.js';

/**
 * Organization data exports (Zulip's RealmExport and zerver/views/realm_export.py): the kinds,
 * the checks a request passes before an export is queued, and what an export looks like to
 * GET /export/realm and the `realm_export` event.
 */

/** Zulip 12 (feature level 449) names them; the integers 1 and 2 of earlier levels are still taken. */
export const EXPORT_TYPES = ['public', 'full_with_consent', 'full_without_consent'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];
const LEGACY_EXPORT_TYPES: Record<string, ExportType> = { '1': 'public', '2': 'full_with_consent' };

/** POST /export/realm's `export_type` (default public); anything else is Zulip's "Invalid export_type". */
export function parseExportType(raw: string | undefined): ExportType {
  if (raw === undefined) return 'public';
  const t = (EXPORT_TYPES as readonly string[]).includes(raw) ? (raw as ExportType) : LEGACY_EXPORT_TYPES[raw];
  if (t === undefined) throw badRequest('Invalid export_type');
  return t;
}

export type ExportStatus = 'requested' | 'started' | 'succeeded' | 'failed' | 'deleted';

/** Exports an organization may request per 7 days (Zulip's EXPORT_LIMIT). */
export const EXPORT_LIMIT = 5;
export const EXPORT_LIMIT_WINDOW_DAYS = 7;
/** Zulip's MAX_MESSAGE_HISTORY and MAX_UPLOAD_QUOTA: larger organizations are exported by hand. */
export const MAX_EXPORT_MESSAGES = 250_000;
export const MAX_EXPORT_UPLOAD_BYTES = 20 * 1024 ** 3;

/** What the checks of a new export read from the database. */
export interface ExportRequestFacts {
  type: ExportType;
  /** Exports the organization requested in the last EXPORT_LIMIT_WINDOW_DAYS days. */
  recentExports: number;
  /** Messages the export would hold (channel messages of public channels for a public export). */
  exportableMessages: number;
  uploadBytes: number;
  /** An active human owner consents to the export of their private data (allow_private_data_export). */
  consentingOwner: boolean;
  /** An active human owner lets administrators (or more) see their email address. */
  ownerWithVisibleEmail: boolean;
  /** Where Zulip says to ask for a manual export (the server's administrator). */
  supportEmail: string;
}

/** Zulip's export_realm checks, in its order; throws the first that fails. */
export function assertCanRequestExport(f: ExportRequestFacts): void {
  if (f.recentExports >= EXPORT_LIMIT) throw badRequest('Exceeded rate limit.');
  if (f.exportableMessages > MAX_EXPORT_MESSAGES || f.uploadBytes > MAX_EXPORT_UPLOAD_BYTES) {
    throw badRequest(`Please request a manual export from ${f.supportEmail}.`);
  }
  if (f.type === 'full_without_consent') {
    // Zulip allows it only where the server's operator turned on owner_full_content_access; this server has no such setting.
    throw badRequest('Full exports without member consent are not available for this organization.');
  }
  if (f.type === 'full_with_consent' && !f.consentingOwner) {
    throw badRequest(`Make sure at least one Organization Owner is consenting to the export or contact ${f.supportEmail} for help.`);
  }
  if (f.type === 'public' && !f.ownerWithVisibleEmail) {
    throw badRequest(
      `Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${f.supportEmail} for help`,
    );
  }
}

/** DELETE /export/realm/{export_id}: only a finished export has a file to delete (Zulip's texts). */
export function assertCanDeleteExport(status: ExportStatus | null): void {
  if (status === null) throw badRequest('Invalid data export ID');
  if (status === 'deleted') throw badRequest('Export already deleted');
  if (status === 'failed') throw badRequest('Export failed, nothing to delete');
  if (status === 'requested' || status === 'started') throw badRequest('Export still in progress');
}

/** Claims of one export before it is given up as failed (each claim after a worker died mid-way). */
export const EXPORT_MAX_ATTEMPTS = 3;

export interface ExportRecordView {
  id: number;
  actingUserId: number | null;
  type: ExportType;
  status: ExportStatus;
  dateRequested: Date;
  dateDeleted: Date | null;
  dateFailed: Date | null;
}

/** One export as GET /export/realm and the `realm_export` event show it (Zulip's get_realm_exports_serialized). */
export function presentExport(e: ExportRecordView, exportUrl: string | null): Record<string, unknown> {
  const seconds = (d: Date | null) => (d === null ? null : d.getTime() / 1000);
  return {
    id: e.id,
    export_time: seconds(e.dateRequested),
    acting_user_id: e.actingUserId,
    export_url: e.status === 'succeeded' ? exportUrl : null,
    deleted_timestamp: seconds(e.dateDeleted),
    failed_timestamp: seconds(e.dateFailed),
    pending: e.status === 'requested' || e.status === 'started',
    export_type: e.type,
  };
}
