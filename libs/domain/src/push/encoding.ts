/*
 * Byte encodings as Zulip's Python code reads them: `base64.b64decode(s, validate=True)`,
 * `bytes.fromhex(s)` and the 8-byte signed big-endian token IDs of zerver/lib/devices.py.
 */

const B64_VALIDATED = /^([A-Za-z0-9+/]*)(=*)$/;

/**
 * `base64.b64decode(s, validate=True)` as Python 3.11+ runs it (binascii's strict mode): the
 * standard alphabet, padding only at the end and not first, and exactly the padding a final
 * group of 2 (`==`) or 3 (`=`) data characters needs (after a complete group extra `=` are
 * tolerated); a lone final character never decodes. Returns null where Python raises.
 */
export function b64decodeValidated(s: string): Uint8Array | null {
  const m = B64_VALIDATED.exec(s);
  if (m === null || s.startsWith('=')) return null;
  const [, data, padding] = m;
  const rest = data.length % 4;
  if (rest === 1 || (rest === 2 && padding.length !== 2) || (rest === 3 && padding.length !== 1)) return null;
  return decodeBase64(data);
}

function decodeBase64(data: string): Uint8Array {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const c of data) {
    acc = ((acc << 6) | ALPHABET.indexOf(c)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

export function encodeBase64(bytes: Uint8Array): string {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
  }
  return out;
}

/** Python's `str.isspace()` on ASCII, which `bytes.fromhex` skips between byte pairs. */
const isAsciiSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
const isHexDigit = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Whether `bytes.fromhex(s)` accepts `s`: pairs of hex digits, ASCII whitespace only before a pair. */
export function isPythonHex(s: string): boolean {
  let i = 0;
  while (i < s.length) {
    if (isAsciiSpace(s[i])) {
      while (i < s.length && isAsciiSpace(s[i])) i++;
      if (i >= s.length) break;
    }
    if (!isHexDigit(s[i]) || !isHexDigit(s[i + 1])) return false;
    i += 2;
  }
  return true;
}

/** `int.from_bytes(b, "big", signed=True)`. */
export function bytesToSignedBigInt(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return bytes[0] & 0x80 ? n - (1n << BigInt(bytes.length * 8)) : n;
}

/** `n.to_bytes(8, "big", signed=True)` then standard Base64 (Zulip's b64encode_token_id_int). */
export function encodeTokenId(n: bigint): string {
  const bytes = new Uint8Array(8);
  let v = BigInt.asUintN(64, n);
  for (let i = 7; i >= 0; i--) {
    bytes[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return encodeBase64(bytes);
}
