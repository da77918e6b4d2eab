/** A bot's key/value storage in the transaction (every method is scoped to one bot of one organization). */
export abstract class BotStorageRepository {
  /** Locks the bot's storage for the rest of the transaction (so that concurrent writes respect the limit). */
  abstract lock(realmId: number, botId: number): Promise<void>;
  /** The size of everything stored, and of what the given keys hold now (code points of keys and values). */
  abstract sizes(realmId: number, botId: number, keys: readonly string[]): Promise<{ total: number; ofWrittenKeys: number }>;
  /** Inserts or replaces the entries. */
  abstract put(realmId: number, botId: number, entries: readonly (readonly [string, string])[]): Promise<void>;
  /** Deletes the entries with these keys (all of them when `keys` is null); returns how many rows went. */
  abstract remove(realmId: number, botId: number, keys: readonly string[] | null): Promise<number>;
}

/** Reads of GET /bot_storage. */
export abstract class BotStorageQueries {
  /** The stored entries with these keys (all of them, oldest first, when `keys` is null). */
  abstract entries(realmId: number, botId: number, keys: readonly string[] | null): Promise<[string, string][]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly botStorage: BotStorageRepository;
  }
}
