import { badRequest } from '../shared/index.js';
import type { ExportType } from './realm-export.js';

/**
 * The organization archive (a .tar.gz): `manifest.json` first, then one JSON file per table of
 * the organization's data (`<table>.json`: an array, one row per line), then the files of its
 * uploads (`uploads/<path>`) and custom emoji (`emoji/<file name>`). Rows keep the ids of the
 * organization they came from; an import gives every row a new id.
 */
export const ARCHIVE_FORMAT = 'svc-organization-archive';
/** The newest layout this server writes and reads; an archive of a newer one is refused. */
export const ARCHIVE_VERSION = 1;

/** The tables of an archive, in the order an import needs them (referenced before referencing). */
export const ARCHIVE_TABLES = [
  'realm',
  'users',
  'user_groups',
  'user_group_members',
  'user_group_subgroups',
  'channels',
  'subscriptions',
  'realm_emoji',
  'attachments',
  'messages',
  'user_messages',
  'reactions',
  'attachment_messages',
] as const;
export type ArchiveTable = (typeof ARCHIVE_TABLES)[number];

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  exported_at: string;
  export_type: ExportType;
  organization: { id: number; string_id: string; name: string };
  /** Rows per table. */
  counts: Partial<Record<ArchiveTable, number>>;
}

export const invalidArchive = (why: string) => badRequest(`Not an organization export: ${why}`);

/** The manifest of an archive this server can import, or the reason it cannot. */
export function checkManifest(raw: unknown): ArchiveManifest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidArchive('manifest.json is not an object');
  const m = raw as Record<string, unknown>;
  if (m.format !== ARCHIVE_FORMAT) throw invalidArchive(`format is ${JSON.stringify(m.format)}, not "${ARCHIVE_FORMAT}"`);
  if (typeof m.version !== 'number' || !Number.isInteger(m.version) || m.version < 1) {
    throw invalidArchive(`version ${JSON.stringify(m.version)} is not a format version`);
  }
  if (m.version > ARCHIVE_VERSION) {
    throw badRequest(`The export is of format version ${m.version}, newer than this server reads (${ARCHIVE_VERSION}): import it on a newer server`);
  }
  const org = m.organization as Record<string, unknown> | undefined;
  if (typeof org !== 'object' || org === null || typeof org.id !== 'number' || typeof org.name !== 'string') {
    throw invalidArchive('manifest.json names no organization');
  }
  return m as unknown as ArchiveManifest;
}
