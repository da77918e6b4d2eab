import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { SecretboxPushCipher } from '../../src/push/infrastructure/secretbox-push-cipher.js';
import { parseWithBigInts, stringifyWithBigInts } from '../../src/push/infrastructure/relay-json.js';

const MESSAGE = '{"realm_url":"http://chat.example.com","realm_name":"Demo","user_id":10,"type":"test","time":1754577820}';
const KEY = Uint8Array.from({ length: 32 }, (_, i) => i);
const NONCE = Uint8Array.from({ length: 24 }, (_, i) => 100 + i);
/** libsodium 1.0.18 crypto_secretbox_easy(MESSAGE, NONCE, KEY), prefixed with the nonce (PyNaCl's SecretBox.encrypt layout). */
const LIBSODIUM =
  'ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7B7xX1ecOmJi3H89mh14wuXmb66xb2qO2xY9Ptg2my2xK2gKIy8UjetIiJ+xr5rnkzUGXdyIVt8aHc3YObUyzBKz1jCIwwlwybMN/Jq7B+xYc4ihP8g14ppv7ZoIl4dexIPL+c4XTWXb79uwFQtfS88783kzX6wq6';

describe('secretbox push cipher', () => {
  it('computes what libsodium secretbox computes', () => {
    const sealed = xsalsa20poly1305(KEY, NONCE).encrypt(new TextEncoder().encode(MESSAGE));
    expect(Buffer.concat([NONCE, sealed]).toString('base64')).toBe(LIBSODIUM);
  });

  it('writes nonce, tag and ciphertext that a client opens with the key after the 0x31 prefix', () => {
    const pushKey = Uint8Array.from([0x31, ...KEY]);
    const cipher = new SecretboxPushCipher();
    const a = Buffer.from(cipher.encrypt(pushKey, MESSAGE), 'base64');
    const b = Buffer.from(cipher.encrypt(pushKey, MESSAGE), 'base64');
    expect(a.length).toBe(24 + 16 + Buffer.byteLength(MESSAGE));
    expect(a.subarray(0, 24).equals(b.subarray(0, 24))).toBe(false); // a fresh nonce each time
    const opened = xsalsa20poly1305(KEY, a.subarray(0, 24)).decrypt(a.subarray(24));
    expect(new TextDecoder().decode(opened)).toBe(MESSAGE);
  });

  it('refuses keys of another cryptosystem', () => {
    expect(() => new SecretboxPushCipher().encrypt(Uint8Array.from([0x32, ...KEY]), MESSAGE)).toThrow('unsupported push key');
  });
});

describe('relay JSON', () => {
  it('writes bigints as exact JSON integers', () => {
    expect(stringifyWithBigInts({ device_id: -359574906294109112n, n: 1, s: 'x' })).toBe('{"device_id":-359574906294109112,"n":1,"s":"x"}');
  });
  it('reads integers beyond 2^53 as exact decimal strings, leaving strings and floats alone', () => {
    expect(parseWithBigInts('{"delete_device_ids":[-359574906294109112, 5],"s":"12345678901234567890","f":1.5e3}')).toEqual({
      delete_device_ids: ['-359574906294109112', 5],
      s: '12345678901234567890',
      f: 1500,
    });
  });
});
