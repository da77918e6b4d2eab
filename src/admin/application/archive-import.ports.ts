/** A row of an archive table (snake_case columns, as the table has them). */
export type ArchiveRow = Record<string, unknown>;

/** The tables an import writes, with the SQL the writer runs on them. */
export type ImportTable =
  | 'users'
  | 'user_groups'
  | 'user_group_members'
  | 'user_group_subgroups'
  | 'channels'
  | 'subscriptions'
  | 'realm_emoji'
  | 'attachments'
  | 'messages'
  | 'user_messages'
  | 'reactions'
  | 'attachment_messages'
  | 'realms';

/**
 * The set-based writes of an archive import, inside its one transaction (`tx.archiveImport`):
 * every statement takes a whole batch of rows (JSON, expanded by PostgreSQL), never one row.
 */
export abstract class ArchiveImportWriter {
  /** `n` new ids of the table's sequence, increasing (so the order of the rows is kept). */
  abstract allocateIds(table: ImportTable, n: number): Promise<number[]>;
  /** Inserts the rows (the columns of the first row that the table has; others take their defaults). */
  abstract insertRows(table: ImportTable, rows: readonly ArchiveRow[], o?: { skipConflicts?: boolean }): Promise<void>;
  /** Sets `columns` of the rows whose `id` the rows name (only columns the table has). */
  abstract updateRows(table: ImportTable, rows: readonly ArchiveRow[], columns: readonly string[]): Promise<void>;
  abstract userIdByEmail(realmId: number, email: string): Promise<number | null>;
  /** The organization's system groups by name (role:everyone …). */
  abstract systemGroupIds(realmId: number): Promise<Map<string, number>>;
  /** The organization's channels by lower-cased name (its initial ones, for an import). */
  abstract channelIdsByName(realmId: number): Promise<Map<string, number>>;
  abstract deleteSubscriptions(realmId: number): Promise<void>;
  /** Gives every channel of the organization its recipient; returns them by channel id. */
  abstract channelRecipients(realmId: number): Promise<Map<number, number>>;
  /** The direct conversations of these participant sets (created where missing), by participant key ("1,5,9"). */
  abstract directRecipients(realmId: number, participantSets: readonly (readonly number[])[]): Promise<Map<string, number>>;
  /** Channel history for the subscribers who have no user_messages row of it (read). */
  abstract addSubscriberHistory(realmId: number): Promise<void>;
  /** Sets each channel's first_message_id from its messages. */
  abstract finishChannels(realmId: number): Promise<void>;
}

/** Files an import places under the uploads directory (removed again when the import fails). */
export abstract class ImportedFiles {
  abstract placeUpload(from: string, pathId: string): Promise<void>;
  abstract placeEmoji(from: string, realmId: number, fileName: string): Promise<void>;
  /** Removes what this import placed. */
  abstract removePlaced(): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly archiveImport: ArchiveImportWriter;
  }
}
