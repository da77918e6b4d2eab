import { randomBytes } from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { PUSH_KEY_LENGTH, PUSH_KEY_SECRETBOX } from '@app/domain/push';
import { Injectable } from '@nestjs/common';
import { PushCipher } from '../application/push.ports.js';

const NONCE_BYTES = 24;

/**
 * The cryptosystem of push keys with prefix 0x31: libsodium's secretbox (XSalsa20-Poly1305),
 * as Zulip's get_encrypted_data does with PyNaCl's `SecretBox(key).encrypt(data, Base64Encoder)`:
 * Base64 of the 24-byte random nonce, the 16-byte Poly1305 tag and the ciphertext. Node's crypto
 * has no XSalsa20, so the cipher comes from @noble/ciphers; the nonce from Node's CSPRNG.
 */
@Injectable()
export class SecretboxPushCipher extends PushCipher {
  encrypt(pushKey: Uint8Array, plaintext: string): string {
    if (pushKey.length !== PUSH_KEY_LENGTH || pushKey[0] !== PUSH_KEY_SECRETBOX) throw new Error('unsupported push key');
    const nonce = randomBytes(NONCE_BYTES);
    const sealed = xsalsa20poly1305(pushKey.subarray(1), nonce).encrypt(new TextEncoder().encode(plaintext));
    return Buffer.concat([nonce, sealed]).toString('base64');
  }
}
