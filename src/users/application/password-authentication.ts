import { DomainError } from '@app/domain/shared';
import { isValidEmail } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import {
  AUTHENTICATE_BY_USERNAME,
  type RateDecision,
  rateLimited,
  RateLimiter,
} from '../../shared/application/rate-limiter.js';
import { RealmQueries } from '../../realm/index.js';
import { type Credentials, UserQueries } from './user.ports.js';

/** The address as the credentials lookup compares it: trimmed, case-insensitive. */
const normalizedLogin = (username: string) => username.trim().toLowerCase();

const failed = (msg: string, code: string) => new DomainError(msg, code, 'unauthorized');

/**
 * Email + password → the account, as Zulip's password backend checks them for POST
 * /fetch_api_key and for the login form (POST /accounts/login/): a well-formed address; every
 * attempt on an address counts against its login limit (5 per 30 minutes) and a success clears
 * it; password authentication enabled in the organization; an active account in an active
 * organization; the password. An unknown address (or one without a password) costs a hash all
 * the same. (The per-client-address limit is the RateLimitGuard's, as for every unauthenticated
 * request.) What a success leads to (an API key, a session, the new-login email) is the caller's.
 */
@Injectable()
export class PasswordAuthentication {
  constructor(
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
  ) {}

  async authenticate(realmId: number, username: string, password: string, onRate: (d: RateDecision) => void): Promise<Credentials> {
    if (!isValidEmail(username.trim())) throw new DomainError('Enter a valid email address.');
    // Keyed as the lookup matches (trimmed, case-insensitive), so no spelling gets fresh tries;
    // an unknown address is counted just like a known one.
    const key = `authenticate_by_username:${normalizedLogin(username)}`;
    if (this.config.rateLimiting) {
      const d = await this.limiter.hit(key, AUTHENTICATE_BY_USERNAME, this.clock.now().getTime());
      onRate(d);
      if (!d.allowed) throw rateLimited(d.retryAfter);
    }
    const realm = await this.realms.get(realmId);
    if (!realm.passwordAuthEnabled) {
      throw failed('Password authentication is disabled in this organization', 'PASSWORD_AUTH_DISABLED');
    }
    const c = await this.users.credentialsByEmail(realmId, username.trim());
    if (c !== null && !c.isActive) throw failed('Account is deactivated', 'USER_DEACTIVATED');
    if (c !== null && c.realmDeactivated) throw failed('This organization has been deactivated', 'REALM_DEACTIVATED');
    const ok =
      c !== null && c.passwordHash !== null && password !== '' && (await this.hasher.verify(c.passwordHash, password));
    if (c === null || c.passwordHash === null) await this.hasher.burn(password); // same cost either way
    if (!ok) throw failed('Your username or password is incorrect', 'AUTHENTICATION_FAILED');
    await this.limiter.clear(key);
    return c!;
  }
}
