import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '@app/domain/shared';
import { type Actor, BotType, isWellFormedApiKey, type Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { CredentialCache } from './credential-cache.js';
import { UserQueries } from './user.ports.js';
import { RealmResolver } from '../../realm/index.js';

const unauthorized = (msg: string) => new DomainError(msg, 'UNAUTHORIZED', 'unauthorized');

export function constantTimeEquals(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Email + API key → the Actor, with Zulip's checks in Zulip's order (all 401 UNAUTHORIZED). The
 * account comes from the credential cache when it is there: every check still runs on each request.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly users: UserQueries,
    private readonly realms: RealmResolver,
    private readonly credentials: CredentialCache,
  ) {}

  /** `host`: the request's Host header, which names the organization. */
  async authenticateApiKey(host: string | undefined, rawEmail: string, rawKey: string): Promise<Actor> {
    const email = rawEmail.trim();
    const key = rawKey.trim();
    if (!isWellFormedApiKey(key)) throw unauthorized('Malformed API key');
    const realmId = await this.realms.resolve(host).catch(() => null);
    // No account's address holds a NUL (PostgreSQL text cannot): such a name matches nobody.
    const c =
      email === '' || email.includes('\u0000') || realmId === null
        ? null
        : await this.credentials.get(realmId, email, () => this.users.credentialsByEmail(realmId, email));
    if (c === null || !constantTimeEquals(c.apiKey, key)) throw unauthorized('Invalid API key');
    if (c.realmDeactivated) throw unauthorized('This organization has been deactivated');
    if (!c.isActive) throw unauthorized('Account is deactivated');
    if (c.botType === BotType.INCOMING_WEBHOOK) {
      throw unauthorized('This API is not available to incoming webhook bots.');
    }
    return {
      userId: c.userId,
      realmId: c.realmId,
      email: c.email,
      role: c.role as Role,
      isBot: c.isBot,
      botType: c.botType as Actor['botType'],
      settingsVersion: c.settingsVersion,
    };
  }
}
