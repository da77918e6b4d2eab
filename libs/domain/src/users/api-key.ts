export const API_KEY_LENGTH = 32;
const API_KEY_RE = /^[A-Za-z0-9]{32}$/;

/** The format check Zulip runs before any lookup ("Malformed API key" otherwise). */
export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_RE.test(key);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Builds a key from random bytes supplied by an adapter (the domain has no randomness).
 * Rejection sampling keeps every character uniform over the 62-letter alphabet.
 */
export function apiKeyFromRandomBytes(bytes: Uint8Array): string {
  let key = '';
  for (const b of bytes) {
    if (b >= 248) continue; // 248 = 4 * 62: keep the distribution uniform
    key += ALPHABET[b % 62];
    if (key.length === API_KEY_LENGTH) return key;
  }
  throw new Error('not enough random bytes for an API key');
}
