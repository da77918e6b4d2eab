import type { ArchiveManifest, ArchiveTable, ExportRecordView, ExportRequestFacts, ExportStatus, ExportType } from '@app/domain/exports';

/** An export row as the service and the worker use it. */
export interface RealmExportRecord extends ExportRecordView {
  realmId: number;
  /** The organization's subdomain (string_id), for the download address. */
  realmStringId: string;
  exportPath: string | null;
  attempts: number;
}

/** An export a worker holds: only the holder of `leaseToken` records its outcome. */
export interface ClaimedExport {
  id: number;
  realmId: number;
  realmStringId: string;
  type: ExportType;
  attempts: number;
  leaseToken: string;
}

/** The exports of the transaction (`tx.realmExports`). */
export abstract class RealmExportRepository {
  /** Serializes the export requests of one organization (the rate limit is counted under it). */
  abstract lockRequests(realmId: number): Promise<void>;
  abstract requestFacts(realmId: number, type: ExportType, since: Date): Promise<Omit<ExportRequestFacts, 'type' | 'supportEmail'>>;
  abstract insert(e: { realmId: number; actingUserId: number; type: ExportType; now: Date }): Promise<number>;
  abstract getForUpdate(realmId: number, id: number): Promise<RealmExportRecord | null>;
  abstract markDeleted(id: number, now: Date): Promise<void>;
  /** The organization's exports requested by a user (not by the command line), oldest first. */
  abstract list(realmId: number): Promise<RealmExportRecord[]>;
  /** Who gets `realm_export` events: the organization's active human administrators and owners. */
  abstract adminIds(realmId: number): Promise<number[]>;
  /** Records the outcome if `leaseToken` still holds the export; false when another worker took it over. */
  abstract finish(id: number, leaseToken: string, o: { status: Extract<ExportStatus, 'succeeded' | 'failed'>; now: Date; path?: string; size?: number; error?: string }): Promise<boolean>;
}

/** What GET /export/realm/consents lists. */
export interface ExportConsent {
  userId: number;
  consented: boolean;
  emailAddressVisibility: number;
}

/** Reads outside a transaction, and the worker's own single-statement claims. */
export abstract class RealmExportQueries {
  abstract consents(realmId: number): Promise<ExportConsent[]>;
  /** The export whose archive is at `path` (relative to the uploads directory), if it belongs to the organization and is there. */
  abstract succeededByPath(realmId: number, path: string): Promise<RealmExportRecord | null>;
  /** Claims the oldest export due (requested, or started with its lease run out), or `id` only. */
  abstract claimNext(o: { now: Date; leaseUntil: Date; id?: number }): Promise<ClaimedExport | null>;
  abstract renewLease(id: number, leaseToken: string, leaseUntil: Date): Promise<boolean>;
}

/** Writes the organization's data, as of one consistent snapshot, into an archive file. */
export abstract class OrganizationArchiver {
  abstract write(o: { realmId: number; type: ExportType; target: string; now: Date }): Promise<{ size: number; counts: Partial<Record<ArchiveTable, number>> }>;
}

/** Export archives on disk, under the uploads directory. */
export abstract class ExportFiles {
  /** The absolute path of an archive given its path relative to the uploads directory. */
  abstract absolute(path: string): string;
  abstract remove(path: string): Promise<void>;
}

/** An archive opened for reading (extracted to a private folder until `close`). */
export interface OpenedArchive {
  manifest: ArchiveManifest;
  /** The rows of a table, one at a time (none when the archive has no such table). */
  rows(table: ArchiveTable): AsyncIterable<Record<string, unknown>>;
  /** The absolute path of a file of the archive (`uploads/…`, `emoji/…`), or null when it is not in it. */
  file(path: string): Promise<string | null>;
  close(): Promise<void>;
}

/** Reads archives (the admin command line's import). */
export abstract class ArchiveReader {
  /** Throws the "Not an organization export" error for a file that is not a readable archive. */
  abstract open(file: string): Promise<OpenedArchive>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly realmExports: RealmExportRepository;
  }
}
