/** Memory-hard password hashing (argon2id in production). */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;
  /** Runs the same work as verify() against a dummy hash, so unknown users cost as much as known ones. */
  abstract burn(password: string): Promise<void>;
}
