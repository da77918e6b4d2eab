import type { CustomEmoji } from '@app/domain/emoji';

/** A custom emoji whose upload has finished. */
export interface RealmEmojiRecord {
  id: number;
  realmId: number;
  name: string;
  authorId: number | null;
  fileName: string;
  isAnimated: boolean;
  deactivated: boolean;
}

export abstract class RealmEmojiRepository {
  /** The organization's custom emoji as the emoji rules see them (uploads in progress left out). */
  abstract customEmoji(realmId: number): Promise<CustomEmoji[]>;
  /** The active custom emoji of these names whose upload has finished. */
  abstract activeNamed(realmId: number, names: readonly string[]): Promise<RealmEmojiRecord[]>;
  /** A new row without a file: invisible until finishUpload gives it one. */
  abstract insert(e: { realmId: number; name: string; authorId: number | null }): Promise<number>;
  abstract finishUpload(realmId: number, id: number, fileName: string, isAnimated: boolean): Promise<void>;
  /** The active emoji of that name, row-locked; null when there is none. */
  abstract lockActiveNamed(realmId: number, name: string): Promise<number | null>;
  /** The active emoji of that name with its author, row-locked; null when there is none. */
  abstract lockActive(realmId: number, name: string): Promise<{ id: number; authorId: number | null } | null>;
  abstract deactivate(realmId: number, id: number): Promise<void>;
  /** Every finished custom emoji of the organization, as GET /realm/emoji lists them. */
  abstract list(realmId: number): Promise<RealmEmojiRecord[]>;
  /** The groups the user belongs to (directly or through subgroups), for the emoji permission setting. */
  abstract groupIdsOfUser(userId: number): Promise<Set<number>>;
}

/**
 * Where custom emoji images are stored and read back (Zulip's local backend keeps them under
 * its avatars directory: <realm id>/emoji/images/<file name>).
 */
export abstract class EmojiImageStorage {
  abstract save(realmId: number, fileName: string, tempFile: string): Promise<void>;
  /** The stored file's local path. */
  abstract path(realmId: number, fileName: string): string;
}

export abstract class RealmEmojiQueries {
  /** Every custom emoji of the organization (deactivated ones included), by ID. */
  abstract list(realmId: number): Promise<RealmEmojiRecord[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly realmEmoji: RealmEmojiRepository;
  }
}
