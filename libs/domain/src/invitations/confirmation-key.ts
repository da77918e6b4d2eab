const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Bytes of randomness in a confirmation key: 15 bytes = 120 bits = 24 base32 characters. */
export const CONFIRMATION_KEY_BYTES = 15;

/** Zulip's generate_key: lower-case base32 of 15 random bytes, supplied by an adapter. */
export function confirmationKeyFromRandomBytes(bytes: Uint8Array): string {
  if (bytes.length !== CONFIRMATION_KEY_BYTES) throw new Error(`a confirmation key needs ${CONFIRMATION_KEY_BYTES} random bytes`);
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

export const isConfirmationKey = (key: string): boolean => /^[a-z2-7]{24}$/.test(key);
