import { randomBytes } from 'node:crypto';
import { apiKeyFromRandomBytes } from '@app/domain/users';

/** Cryptographic randomness for API keys, generated passwords and tokens. */
export abstract class Secrets {
  abstract apiKey(): string;
  abstract password(): string;
  abstract hexToken(bytes: number): string;
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
}
