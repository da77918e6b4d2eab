import { badRequest } from '@app/domain/shared';
import {
  type Actor,
  adminRequired,
  assertChangeableForOthers,
  type ChangeableSetting,
  checkFullName,
  checkSettingValues,
  deliveryEmailAudienceChange,
  displayEmail,
  EMAIL_ADDRESS_VISIBILITY,
  isAdmin,
  Role,
  type SettingChange,
  settingChanges,
  USER_SETTING_NAMES,
  type UserSettingValue,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { RealmRecord } from '../../realm/index.js';
import { AccountRules } from '../../shared/application/account-rules.js';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { AUTHENTICATE_BY_USERNAME, RateLimiter } from '../../shared/application/rate-limiter.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { EmailChanges } from './email-changes.js';
import { passwordStamp } from './sessions.service.js';
import { type AccountState, UserSettingsQueries } from './user-settings.ports.js';
import { PresenceSettingEffects } from './user.ports.js';
import { avatarChangeEvent, bulkSettingEvents, personUpdate, settingChangeEvents } from './user-settings.events.js';
import { userChangeEvents } from './user.events.js';

export interface TargetUsers {
  userIds: number[];
  groupIds: number[];
  skipIfAlreadyEdited: boolean;
}

/** PATCH /settings, decoded: the settings asked for, and the account fields. */
export interface SettingsUpdate {
  settings: Partial<Record<ChangeableSetting, UserSettingValue>>;
  fullName?: string;
  email?: string;
  oldPassword?: string;
  newPassword?: string;
  targetUsers?: TargetUsers;
}

interface PasswordChange {
  expected: string;
  hash: string;
}

/**
 * PATCH /settings (Zulip's json_change_settings). Everything is checked in Zulip's order first
 * (argon2 work outside the transaction), then applied in one transaction: password, email
 * change request, name, settings; each setting's events go out after COMMIT.
 */
@Injectable()
export class SettingsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: UserSettingsQueries,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly rules: AccountRules,
    private readonly limiter: RateLimiter,
    private readonly config: ServerConfig,
    private readonly emailChanges: EmailChanges,
    private readonly presence: PresenceSettingEffects,
  ) {}

  /**
   * `session`: the browser session the request came with (its id), which a password change
   * keeps; the user's other sessions end with the change (all of them for an API request).
   */
  async updateSettings(actor: Actor, req: SettingsUpdate, session: string | null = null): Promise<void> {
    if (req.targetUsers !== undefined) return this.updateOthers(actor, req, req.targetUsers);
    checkSettingValues(req.settings);
    const password = req.newPassword === undefined ? null : await this.checkPasswordChange(actor, req.oldPassword, req.newPassword);
    await this.uow.run(async (tx) => {
      const me = (await tx.userSettings.getForUpdate(actor.realmId, actor.userId))!;
      const realm = await tx.realms.get(actor.realmId);
      if (password !== null) {
        if (!(await tx.accounts.replacePasswordHash(realm.id, me.userId, password.expected, password.hash))) throw badRequest('Wrong password!');
        await tx.sessions.endForUser(realm.id, me.userId, session === null ? null : { sessionId: session, passwordStamp: passwordStamp(password.hash) });
      }
      if (req.email !== undefined) await this.emailChanges.request(tx, me, realm, req.email.trim());
      if (req.fullName !== undefined) await this.changeFullName(tx, me, realm, req.fullName);
      await this.changeSettings(tx, me, realm, settingChanges(me.settings, req.settings));
    });
  }

  /** Zulip authenticates the old password (counting against the login limit), then checks the new one's strength. */
  private async checkPasswordChange(actor: Actor, oldPassword: string | undefined, newPassword: string): Promise<PasswordChange> {
    const c = await this.queries.credentials(actor.realmId, actor.userId);
    const key = `authenticate_by_username:${c.deliveryEmail}`;
    if (this.config.rateLimiting) {
      const d = await this.limiter.hit(key, AUTHENTICATE_BY_USERNAME, this.clock.now().getTime());
      if (!d.allowed) throw badRequest(`You're making too many attempts! Try again in ${Math.floor(d.retryAfter)} seconds.`);
    }
    const ok =
      c.passwordAuthEnabled &&
      c.passwordHash !== null &&
      oldPassword !== undefined &&
      oldPassword !== '' &&
      (await this.hasher.verify(c.passwordHash, oldPassword));
    if (!ok) throw badRequest('Wrong password!');
    if (!this.rules.isStrongPassword(newPassword)) throw badRequest('New password is too weak!');
    await this.limiter.clear(key);
    return { expected: c.passwordHash!, hash: await this.hasher.hash(newPassword) };
  }

  /** Zulip's check_change_full_name; ignored (not refused) where the organization disables name changes. */
  private async changeFullName(tx: Tx, me: AccountState, realm: RealmRecord, raw: string): Promise<void> {
    if (raw === me.fullName) return;
    if (realm.nameChangesDisabled && !isAdmin(me.role as Actor['role'])) return;
    const name = checkFullName(raw);
    if (realm.requireUniqueNames && (await tx.users.fullNameTaken(realm.id, name, me.userId))) {
      throw badRequest('Unique names required in this organization.');
    }
    const user = (await tx.users.getForUpdate(realm.id, me.userId))!;
    user.rename(name);
    const recorded = user.pullEvents();
    if (recorded.length === 0) return;
    await tx.users.save(user);
    tx.afterCommit(userChangeEvents(realm.id, recorded));
  }

  private async changeSettings(tx: Tx, me: AccountState, realm: RealmRecord, changes: SettingChange[]): Promise<void> {
    if (changes.length === 0) return;
    await tx.userSettings.apply(realm.id, me.userId, changes);
    await tx.userSettings.recordSelfEdits(me.userId, changes.map((c) => c.name));
    let email = me.email;
    for (const c of changes) {
      tx.afterCommit(settingChangeEvents(realm.id, me.userId, email, c));
      // Zulip's do_change_user_setting: the user's presence follows presence_enabled at once.
      if (c.name === 'presence_enabled') await this.presence.presenceEnabledChanged(tx, realm.id, me.userId, c.value === true);
      if (c.name === 'email_address_visibility') {
        email = await this.emailVisibilityChanged(tx, me, realm, Number(me.settings.email_address_visibility), Number(c.value));
      }
      if (c.name === 'allow_private_data_export') {
        // Zulip's do_change_user_setting: the administrators' consent list (GET /export/realm/consents) follows.
        const admins = await tx.userSettings.activeUserIdsWithRoles(realm.id, [Role.OWNER, Role.ADMINISTRATOR], 0);
        tx.afterCommit([{ realmId: realm.id, event: { type: 'realm_export_consent', user_id: me.userId, consented: c.value === true }, userIds: admins }]);
      }
    }
  }

  /**
   * Zulip's send_delivery_email_update_events and, when "everyone" is involved, the switch
   * between the real address and `user<id>@<domain>` as the API email. Returns the API email.
   */
  private async emailVisibilityChanged(tx: Tx, me: AccountState, realm: RealmRecord, before: number, after: number): Promise<string> {
    const { gained, lost } = deliveryEmailAudienceChange(before, after);
    const seeing = await tx.userSettings.activeUserIdsWithRoles(realm.id, gained, me.userId);
    const blind = await tx.userSettings.activeUserIdsWithRoles(realm.id, lost, me.userId);
    tx.afterCommit(personUpdate(realm.id, { user_id: me.userId, delivery_email: me.deliveryEmail }, seeing));
    tx.afterCommit(personUpdate(realm.id, { user_id: me.userId, delivery_email: null }, blind));
    if (before !== EMAIL_ADDRESS_VISIBILITY.EVERYONE && after !== EMAIL_ADDRESS_VISIBILITY.EVERYONE) return me.email;
    const email = displayEmail(me.userId, me.deliveryEmail, after, this.config.botDomainFor(realm.stringId));
    await tx.accounts.setEmails(realm.id, me.userId, { email });
    tx.afterCommit(personUpdate(realm.id, { user_id: me.userId, new_email: email }, null));
    tx.afterCommit([avatarChangeEvent(realm.id, me.userId, me)]);
    return email;
  }

  /**
   * target_users (administrators): one or more settings for listed users and members of
   * groups (bots left out). Zulip validates no value here; this server checks them as for
   * oneself, so nothing invalid is stored.
   */
  private async updateOthers(actor: Actor, req: SettingsUpdate, target: TargetUsers): Promise<void> {
    if (!isAdmin(actor.role)) throw adminRequired();
    const sent = [
      ...(req.email !== undefined ? ['email'] : []),
      ...(req.newPassword !== undefined ? ['new_password'] : []),
      ...Object.keys(req.settings),
    ];
    assertChangeableForOthers(sent);
    checkSettingValues(req.settings);
    await this.uow.run(async (tx) => {
      const groups = await tx.userSettings.membersOfGroups(actor.realmId, target.groupIds);
      if (groups.unknown.length > 0) throw badRequest(`Invalid user group ID: ${groups.unknown[0]}`);
      const listed = await tx.userSettings.humansAmong(actor.realmId, target.userIds);
      if (listed.unknown.length > 0) throw badRequest(`Invalid user ID: ${listed.unknown[0]}`);
      const userIds = [...new Set([...target.userIds, ...groups.userIds])];
      for (const name of USER_SETTING_NAMES) {
        const value = req.settings[name];
        if (value === undefined) continue;
        const changed = await tx.userSettings.applyToUsers(actor.realmId, userIds, name, value, target.skipIfAlreadyEdited);
        tx.afterCommit(bulkSettingEvents(actor.realmId, changed, { name, value }));
      }
    });
  }
}
