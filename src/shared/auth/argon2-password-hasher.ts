import argon2 from 'argon2';
import { PasswordHasher } from '../application/password-hasher.js';

/**
 * argon2id (memory-hard; OWASP's first choice). Cost defaults to the library's 64 MiB / 3
 * passes; PASSWORD_HASH_MEMORY_KIB (ServerConfig) lowers it where hashing speed matters more (tests).
 */
export class Argon2PasswordHasher extends PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly memoryCost = 65536) {
    super();
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.memoryCost });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false; // not an argon2 hash
    }
  }

  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash('not a password of anyone');
    await this.verify(await this.dummy, password);
  }
}
