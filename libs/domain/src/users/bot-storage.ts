import { badRequest, type DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';

/*
 * Bot storage (Zulip's zerver/views/storage.py and zerver/lib/bot_storage.py): a bot's own
 * string keys and values, at most USER_STATE_SIZE_LIMIT characters of keys and values in all.
 */

/** Zulip's default USER_STATE_SIZE_LIMIT (characters of all keys and values of one bot). */
export const DEFAULT_BOT_STORAGE_LIMIT = 10_000_000;

export const botRequired = (): DomainError => badRequest('Must be a bot user');
export const storageKeyMissing = (): DomainError => badRequest('Key does not exist.');

/** One entry's size: its key and value in code points (Python's `len`, PostgreSQL's `length`). */
export const entrySize = (key: string, value: string): number => codePointLength(key) + codePointLength(value);

/**
 * Zulip's set_bot_storage check: the stored size, minus what the written keys hold now, plus
 * the written entries, may not exceed the limit.
 */
export function assertStorageFits(
  stored: { total: number; ofWrittenKeys: number },
  entries: readonly (readonly [string, string])[],
  limit: number,
): void {
  const size = stored.total - stored.ofWrittenKeys + entries.reduce((n, [k, v]) => n + entrySize(k, v), 0);
  if (size > limit) {
    throw badRequest(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`);
  }
}

/**
 * GET with `keys`: every key named must exist; the answer holds them in the order first named
 * (Zulip's dict comprehension), which JSON clients read as an object.
 */
export function pickStoredEntries(stored: ReadonlyMap<string, string>, keys: readonly string[]): [string, string][] {
  const out = new Map<string, string>();
  for (const key of keys) {
    const value = stored.get(key);
    if (value === undefined) throw storageKeyMissing();
    out.set(key, value);
  }
  return [...out.entries()];
}

/**
 * DELETE with `keys` (Zulip's remove_bot_storage): fewer stored rows than keys named (a key
 * missing, or named twice) refuses the whole request.
 */
export function assertAllKeysRemoved(removed: number, keys: readonly string[]): void {
  if (removed < keys.length) throw storageKeyMissing();
}
