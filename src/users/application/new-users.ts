import { badRequest } from '@app/domain/shared';
import { assertEmailAllowed, type Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { AccountRules } from '../../shared/application/account-rules.js';
import { toEveryone } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { accountRegisteredEmail } from './account-emails.js';
import { NewAccounts } from './new-accounts.js';
import { NewUserAnnouncements, NewUserChannels } from './user.ports.js';
import { presentUser } from './user.views.js';

export interface NewHuman {
  realmId: number;
  email: string;
  /** Already checked (checkFullName). */
  fullName: string;
  /** null: the password was too weak, refused after the address checks (Zulip's order). */
  passwordHash: string | null;
  role: Role;
  /** The channels to join besides (or instead of) the organization's default channels. */
  channelIds: readonly number[];
  includeDefaultChannels: boolean;
  /** User groups the new user joins (an invitation's): active named groups only. */
  groupIds?: readonly number[];
  /** Who invited the new user and asked to be told (an email invitation's notify_referrer_on_join). */
  notifyReferrerId?: number | null;
}

/**
 * Zulip's do_create_user for a person, inside the caller's transaction (an administrator's
 * POST /users, a sign-up through an invitation): the address checks, the account, its
 * channels, the realm_user event, the sign-up announcement and the welcome email.
 */
@Injectable()
export class NewUsers {
  constructor(
    private readonly accounts: NewAccounts,
    private readonly rules: AccountRules,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly newUserChannels: NewUserChannels,
    private readonly announcements: NewUserAnnouncements,
  ) {}

  async register(tx: Tx, a: NewHuman): Promise<number> {
    const realm = await tx.realms.get(a.realmId);
    assertEmailAllowed(a.email, { ...realm, domains: await tx.realms.domains(a.realmId) }, (d) => this.rules.isDisposableDomain(d));
    if (await tx.users.emailInUse(a.realmId, a.email)) throw badRequest(`Email '${a.email}' already in use`);
    if (a.passwordHash === null) throw badRequest('The password is too weak.');
    const userId = await this.accounts.insert(tx, {
      realmId: a.realmId,
      email: a.email,
      fullName: a.fullName,
      passwordHash: a.passwordHash,
      role: a.role,
      bot: null,
      waitingPeriodDays: realm.waitingPeriodThreshold,
      defaultLanguage: realm.defaultLanguage,
    });
    await this.newUserChannels.subscribeNewUser(tx, a.realmId, userId, { channelIds: a.channelIds, includeDefaults: a.includeDefaultChannels });
    // Everyone learns of the new user (Zulip's realm_user add; the person as in realm_users).
    const { is_active: _, ...person } = presentUser((await tx.users.findById(a.realmId, userId))!, { clientGravatar: false, profileData: {} });
    tx.afterCommit(toEveryone(a.realmId, [{ type: 'realm_user', op: 'add', person }]));
    await this.joinGroups(tx, a.realmId, userId, a.groupIds ?? []);
    await this.announcements.userJoined(tx, a.realmId, { id: userId, fullName: a.fullName }, this.clock.now());
    if (a.notifyReferrerId != null) await this.announcements.invitationAccepted(tx, a.realmId, a.notifyReferrerId, { id: userId, fullName: a.fullName }, this.clock.now());
    // Zulip's send_account_registered_email: the new user learns where and how to log in.
    const welcome = { realmId: realm.id, to: a.email, realmName: realm.name, realmUrl: this.config.realmUrl(realm.stringId) };
    await tx.emails.send(accountRegisteredEmail(welcome), this.clock.now());
    return userId;
  }

  /** Zulip adds the invited user to the invitation's groups (those still active), one add_members event each. */
  private async joinGroups(tx: Tx, realmId: number, userId: number, groupIds: readonly number[]): Promise<void> {
    for (const groupId of [...new Set(groupIds)]) {
      const group = await tx.groups.find(realmId, groupId, true);
      if (group === null || group.name === null || group.deactivated || group.isSystemGroup) continue;
      await tx.groups.addMembers(realmId, groupId, [userId]);
      tx.afterCommit(toEveryone(realmId, [{ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [userId] }]));
    }
  }
}
