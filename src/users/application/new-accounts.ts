import { directSystemGroupsFor, isFullMember, type Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { Secrets } from '../../shared/application/secrets.js';
import type { Tx } from '../../shared/application/unit-of-work.js';

export interface NewAccount {
  realmId: number;
  email: string;
  fullName: string;
  passwordHash: string | null;
  role: Role;
  bot: { type: number; ownerId: number | null; isSystemBot: boolean; defaultAllPublicStreams: boolean } | null;
  waitingPeriodDays: number;
  apiKey?: string;
  /** The organization's default language (Zulip copies it to a new account). */
  defaultLanguage?: string;
}

/**
 * Inserts a user or bot with its system-group memberships, inside the caller's transaction
 * (creating a user, a bot, or the organization at bootstrap): a step of those use cases, not a
 * use case of its own.
 */
@Injectable()
export class NewAccounts {
  constructor(
    private readonly clock: Clock,
    private readonly secrets: Secrets,
  ) {}

  async insert(tx: Tx, a: NewAccount): Promise<number> {
    const now = this.clock.now();
    const id = await tx.users.insert({
      realmId: a.realmId,
      email: a.email,
      deliveryEmail: a.email,
      fullName: a.fullName,
      passwordHash: a.passwordHash,
      apiKey: a.apiKey ?? this.secrets.apiKey(),
      role: a.role,
      isBot: a.bot !== null,
      botType: a.bot?.type ?? null,
      botOwnerId: a.bot?.ownerId ?? null,
      isSystemBot: a.bot?.isSystemBot ?? false,
      dateJoined: now,
      defaultAllPublicStreams: a.bot?.defaultAllPublicStreams ?? false,
      defaultLanguage: a.defaultLanguage ?? 'en',
    });
    const groups = directSystemGroupsFor(a.role, isFullMember(a.role, now, a.waitingPeriodDays, now));
    await tx.groups.setSystemGroupMemberships(a.realmId, id, groups);
    return id;
  }
}
