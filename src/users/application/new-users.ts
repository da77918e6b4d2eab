import { badRequest } from '@app/domain/shared';
import { assertEmailAllowed, displayEmail, EMAIL_ADDRESS_VISIBILITY, Role, rolesSeeing } from '@app/domain/users';
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

const ALL_ROLES: readonly Role[] = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

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
    const visibility = await this.takeOrganizationDefaults(tx, a.realmId, userId, a.email);
    await this.newUserChannels.subscribeNewUser(tx, a.realmId, userId, { channelIds: a.channelIds, includeDefaults: a.includeDefaultChannels });
    await this.announceUser(tx, a.realmId, userId, visibility);
    await this.joinGroups(tx, a.realmId, userId, a.groupIds ?? []);
    await this.announcements.userJoined(tx, a.realmId, { id: userId, fullName: a.fullName }, this.clock.now());
    if (a.notifyReferrerId != null) await this.announcements.invitationAccepted(tx, a.realmId, a.notifyReferrerId, { id: userId, fullName: a.fullName }, this.clock.now());
    // Zulip's send_account_registered_email: the new user learns where and how to log in.
    const welcome = { realmId: realm.id, to: a.email, realmName: realm.name, realmUrl: this.config.realmUrl(realm.stringId) };
    await tx.emails.send(accountRegisteredEmail(welcome), this.clock.now());
    return userId;
  }

  /**
   * Zulip's copy_default_settings from the organization's defaults (realm_user_settings_defaults),
   * then its display address: the real one only when everyone may see it. Returns the account's
   * address visibility.
   */
  private async takeOrganizationDefaults(tx: Tx, realmId: number, userId: number, email: string): Promise<number> {
    const visibility = (await tx.realmUserDefaults.copyToNewUser(realmId, userId)) ?? EMAIL_ADDRESS_VISIBILITY.EVERYONE;
    if (visibility !== EMAIL_ADDRESS_VISIBILITY.EVERYONE) {
      const realm = await tx.realms.get(realmId);
      await tx.accounts.setEmails(realmId, userId, { email: displayEmail(userId, email, visibility, this.config.botDomainFor(realm.stringId)) });
    }
    return visibility;
  }

  /**
   * Everyone learns of the new user (Zulip's notify_created_user: realm_user add, the person as
   * in realm_users); the real address only reaches those whose role may see it.
   */
  private async announceUser(tx: Tx, realmId: number, userId: number, visibility: number): Promise<void> {
    const { is_active: _, ...person } = presentUser((await tx.users.findById(realmId, userId))!, { clientGravatar: false, profileData: {} });
    if (visibility === EMAIL_ADDRESS_VISIBILITY.EVERYONE) {
      tx.afterCommit(toEveryone(realmId, [{ type: 'realm_user', op: 'add', person }]));
      return;
    }
    const seeing = rolesSeeing(visibility);
    const blind = ALL_ROLES.filter((r) => !seeing.includes(r));
    const event = (p: Record<string, unknown>) => ({ type: 'realm_user', op: 'add', person: p });
    const seers = await tx.userSettings.activeUserIdsWithRoles(realmId, seeing, userId);
    const others = await tx.userSettings.activeUserIdsWithRoles(realmId, blind, userId);
    if (seers.length > 0) tx.afterCommit([{ realmId, event: event(person), userIds: seers }]);
    if (others.length > 0) tx.afterCommit([{ realmId, event: event({ ...person, delivery_email: null }), userIds: others }]);
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
