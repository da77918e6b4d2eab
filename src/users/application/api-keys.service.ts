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
import { type LoginClient, LoginNotices } from './login-notices.js';
import { UserQueries } from './user.ports.js';

/** The address as the credentials lookup compares it: trimmed, case-insensitive. */
const normalizedLogin = (username: string) => username.trim().toLowerCase();

const failed = (msg: string, code: string) => new DomainError(msg, code, 'unauthorized');

export interface FetchedApiKey {
  apiKey: string;
  email: string;
  userId: number;
}

/**
 * POST /fetch_api_key: email + password → API key. Every attempt on an address counts against
 * its login limit (5 per 30 minutes); a success clears it. (The per-client-address limit is
 * the RateLimitGuard's, as for every unauthenticated request.) A success emails the user
 * about the new login (Zulip's email_on_new_login, see LoginNotices).
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly notices: LoginNotices,
  ) {}

  async fetchApiKey(
    realmId: number,
    username: string,
    password: string,
    onRate: (d: RateDecision) => void,
    client: LoginClient = { userAgent: '', ip: '' },
  ): Promise<FetchedApiKey> {
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
    await this.notices.loggedIn(realmId, c!.userId, client);
    return { apiKey: c!.apiKey, email: c!.deliveryEmail, userId: c!.userId };
  }
}
