import { randomBytes } from 'node:crypto';
import { CONFIRMATION_KEY_BYTES, confirmationKeyFromRandomBytes } from '@app/domain/invitations';
import { apiKeyFromRandomBytes } from '@app/domain/users';

/** Cryptographic randomness for API keys, generated passwords and tokens. */
export abstract class Secrets {
  abstract apiKey(): string;
  abstract password(): string;
  abstract hexToken(bytes: number): string;
  /** `bytes` random bytes as base64url (cookie tokens). */
  abstract urlToken(bytes: number): string;
  /** The key of an invitation link: 24 lower-case base32 characters (120 random bits). */
  abstract confirmationKey(): string;
}

export class CryptoSecrets extends Secrets {
  apiKey(): string {
    return apiKeyFromRandomBytes(randomBytes(64));
  }
  password(): string {
    return randomBytes(18).toString('base64url');
  }
  hexToken(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  }
  urlToken(bytes: number): string {
    return randomBytes(bytes).toString('base64url');
  }
  confirmationKey(): string {
    return confirmationKeyFromRandomBytes(randomBytes(CONFIRMATION_KEY_BYTES));
  }
}
