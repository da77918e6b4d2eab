import { BotChannels } from './bot.ports.js';
import { badRequest, insufficientPermission } from '@app/domain/shared';
import { assertCanCreateBot } from '@app/domain/realm';
import {
  type Actor,
  assertCanAccessUser,
  assertCanDeactivateSelf,
  BotType,
  checkFullName,
  checkShortName,
  directSystemGroupsFor,
  isFullMember,
  isGuest,
  isValidEmail,
  noSuchUser,
  userIdOfDummyEmail,
  visibilitiesSeenBy,
  type ProfileValue,
  type Role,
  Role as Roles,
  type User,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { AccountRules } from '../../shared/application/account-rules.js';
import { toEveryone } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { Secrets } from '../../shared/application/secrets.js';
import { userChangeEvents } from './user.events.js';
import { presentUser } from './user.views.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { SettingHolder } from './permissions.js';
import { NewAccounts } from './new-accounts.js';
import { NewUsers } from './new-users.js';
import { UserQueries, type UserRecord } from './user.ports.js';
import { CustomProfileFieldQueries } from './custom-profile-fields.ports.js';
import { presentProfileData } from './custom-profile-fields.views.js';
import { BotsService } from './bots.service.js';
import { ProfileData, type ProfileDataItem } from './profile-data.js';

export interface CreateBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
}

export interface AdminProfileDataItem {
  id: number;
  value: ProfileValue | null;
}

export interface UserChange {
  role?: Role;
  fullName?: string;
  profileData?: readonly AdminProfileDataItem[];
}

export interface CreatedBot {
  userId: number;
  apiKey: string;
  email: string;
  defaultAllPublicStreams: boolean;
  defaultSendingStream: string | null;
  defaultEventsRegisterStream: string | null;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: UserQueries,
    private readonly clock: Clock,
    private readonly secrets: Secrets,
    private readonly hasher: PasswordHasher,
    private readonly rules: AccountRules,
    private readonly config: ServerConfig,
    private readonly botChannels: BotChannels,
    private readonly accounts: NewAccounts,
    private readonly profileFields: CustomProfileFieldQueries,
    private readonly profileData: ProfileData,
    private readonly bots: BotsService,
    private readonly newUsers: NewUsers,
  ) {}

  /** GET /users/{id}: any user of the organization, bots and deactivated users included. */
  async getUser(actor: Actor, userId: number): Promise<UserRecord> {
    const user = await this.queries.get(actor.realmId, userId);
    if (user === null) throw noSuchUser();
    return user;
  }

  /**
   * The id behind `users/{user_id}` or `users/{email}` (Zulip's access_user_by_email): a
   * display address `user<id>@<fake domain>` names that id; any other address must be a real
   * address the caller's role may see under the user's email_address_visibility, else `No such user`.
   */
  async resolveUserRef(actor: Actor, ref: number | string): Promise<number> {
    if (typeof ref === 'number') return ref;
    const realm = await this.uow.run((tx) => tx.realms.get(actor.realmId));
    const dummyId = userIdOfDummyEmail(ref, this.config.botDomainFor(realm.stringId));
    if (dummyId !== null) return dummyId;
    const user = await this.queries.findByDeliveryEmail(actor.realmId, ref, visibilitiesSeenBy(actor.role));
    if (user === null) throw noSuchUser();
    return user.id;
  }

  /** GET /users/me: the caller, their profile data and newest message id, in one read. */
  async getOwnProfile(actor: Actor): Promise<{ user: UserRecord; profileData: Record<string, unknown>; maxMessageId: number }> {
    const own = await this.queries.ownProfile(actor.realmId, actor.userId);
    if (own === null) throw noSuchUser();
    return { user: own.user, profileData: presentProfileData(own.profileValues), maxMessageId: own.maxMessageId };
  }

  maxMessageId(userId: number): Promise<number> {
    return this.queries.maxMessageId(userId);
  }

  listUsers(actor: Actor): Promise<UserRecord[]> {
    return this.queries.list(actor.realmId);
  }

  /** POST /users (administrators). */
  async createUser(actor: Actor, email: string, password: string, rawFullName: string): Promise<number> {
    const fullName = checkFullName(rawFullName);
    if (!isValidEmail(email)) throw badRequest('Bad name or username');
    // Hash outside the transaction (argon2 is slow on purpose); the error order stays Zulip's.
    const strong = this.rules.isStrongPassword(password);
    const passwordHash = strong ? await this.hasher.hash(password) : null;
    return this.uow.run((tx) =>
      this.newUsers.register(tx, {
        realmId: actor.realmId,
        email,
        fullName,
        passwordHash,
        role: Roles.MEMBER,
        channelIds: [],
        includeDefaultChannels: true,
      }),
    );
  }

  /** POST /bots. */
  async createBot(actor: Actor, input: CreateBotInput): Promise<CreatedBot> {
    const shortName = checkShortName(input.shortName);
    const fullName = checkFullName(input.fullName);
    const apiKey = this.secrets.apiKey();
    return this.uow.run(async (tx) => {
      const realm = await tx.realms.get(actor.realmId);
      const email = `${shortName}-bot@${this.config.botDomainFor(realm.stringId)}`;
      if (!isValidEmail(email)) throw badRequest('Bad name or username');
      if (await tx.users.emailInUse(actor.realmId, email)) throw badRequest('Username already in use');
      if (await tx.users.activeUserNamed(actor.realmId, fullName)) throw badRequest('Name is already in use.');
      const holder = new SettingHolder(actor, tx.realms, tx.groups);
      assertCanCreateBot(
        input.botType,
        await holder.holdsRealmSetting('can_create_bots_group'),
        await holder.holdsRealmSetting('can_create_write_only_bots_group'),
        false,
      );
      // Zulip's access_stream_by_name for each default channel (a public one, or one the creator is subscribed to).
      const defaults: ({ id: number; name: string } | null)[] = [];
      for (const name of [input.defaultSendingStream, input.defaultEventsRegisterStream]) {
        if (name === undefined) {
          defaults.push(null);
          continue;
        }
        const channel = await this.botChannels.accessibleByName(tx, actor.realmId, { id: actor.userId, isGuest: isGuest(actor.role) }, name);
        if (channel === null) throw badRequest(`Invalid channel name '${name}'`);
        defaults.push(channel);
      }
      const [sending, register] = defaults;
      const defaultAllPublicStreams = input.defaultAllPublicStreams ?? false;
      const userId = await this.accounts.insert(tx, {
        realmId: actor.realmId,
        email,
        fullName,
        passwordHash: null,
        role: Roles.MEMBER,
        bot: { type: input.botType, ownerId: actor.userId, isSystemBot: false, defaultAllPublicStreams },
        waitingPeriodDays: realm.waitingPeriodThreshold,
        apiKey,
        defaultLanguage: realm.defaultLanguage,
      });
      if (sending !== null || register !== null) {
        await tx.bots.update(actor.realmId, userId, { defaultSendingStreamId: sending?.id ?? null, defaultEventsRegisterStreamId: register?.id ?? null });
      }
      // Zulip's do_create_user: everyone learns of the bot (realm_user add), its owners get realm_bot add.
      const { is_active: _, ...person } = presentUser((await tx.users.findById(actor.realmId, userId))!, { clientGravatar: false, profileData: {} });
      tx.afterCommit([...toEveryone(actor.realmId, [{ type: 'realm_user', op: 'add', person }]), ...(await this.bots.botAdded(tx, actor.realmId, userId))]);
      return { userId, apiKey, email, defaultAllPublicStreams, defaultSendingStream: sending?.name ?? null, defaultEventsRegisterStream: register?.name ?? null };
    });
  }

  /** A user's custom profile field values as `profile_data` shows them. */
  async profileDataOf(actor: Actor, userId: number): Promise<Record<string, unknown>> {
    return presentProfileData(await this.profileFields.valuesOfUser(actor.realmId, userId));
  }

  /** Every user's `profile_data`, by user ID (users without values get `{}`). */
  async profileDataOfRealm(actor: Actor): Promise<Map<number, Record<string, unknown>>> {
    const values = await this.profileFields.valuesOfRealm(actor.realmId);
    return new Map([...values].map(([id, v]) => [id, presentProfileData(v)]));
  }

  /** PATCH /users/{id}: role, full name and (Zulip's admin path) custom profile field values. */
  async updateUser(actor: Actor, userId: number, change: UserChange): Promise<void> {
    await this.uow.run(async (tx) => {
      const user = await this.loadForAdmin(tx, actor, userId, { allowBots: true, allowDeactivated: true });
      if (change.role !== undefined && change.role !== user.role) {
        user.changeRole(actor, change.role, await tx.users.lockActiveHumanOwners(actor.realmId));
        const realm = await tx.realms.get(actor.realmId);
        const s = user.snapshot();
        const full = isFullMember(s.role, s.dateJoined, realm.waitingPeriodThreshold, this.clock.now());
        await tx.groups.setSystemGroupMemberships(actor.realmId, userId, directSystemGroupsFor(s.role, full));
      }
      if (change.fullName !== undefined && change.fullName.trim() !== '') {
        user.rename(checkFullName(change.fullName));
      }
      await tx.users.save(user);
      const recorded = user.pullEvents();
      // Zulip's do_change_full_name: a bot's owners also get its realm_bot update.
      const renamedBot = user.snapshot().isBot && recorded.some((e) => e.type === 'full_name_changed');
      tx.afterCommit(userChangeEvents(actor.realmId, recorded, renamedBot ? await this.bots.audience(tx, actor.realmId, userId) : null));
      if (change.profileData !== undefined) await this.adminProfileData(tx, actor, userId, change.profileData);
    });
  }

  /** Zulip's update_user_backend: an empty value removes the field's value, the others are set. */
  private async adminProfileData(tx: Tx, actor: Actor, userId: number, items: readonly AdminProfileDataItem[]): Promise<void> {
    const empty = (v: AdminProfileDataItem['value']) => v === null || v.length === 0;
    await this.profileData.remove(tx, actor, userId, items.filter((i) => empty(i.value)).map((i) => i.id));
    await this.profileData.update(tx, actor, userId, items.filter((i) => !empty(i.value)) as ProfileDataItem[]);
  }

  /** DELETE /users/{id}: deactivates a human user and the bots they own. */
  async deactivateUser(actor: Actor, userId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const user = await this.loadForAdmin(tx, actor, userId, { allowBots: false, allowDeactivated: false });
      user.deactivateByAdmin(actor, await tx.users.lockActiveHumanOwners(actor.realmId));
      await tx.users.save(user);
      const botIds = await tx.users.deactivateBotsOwnedBy(actor.realmId, userId);
      // Zulip's do_deactivate_user: every browser session of the user ends.
      await tx.sessions.endForUser(actor.realmId, userId);
      tx.afterCommit(userChangeEvents(actor.realmId, user.pullEvents()));
      tx.afterCommit(await this.bots.botsDeactivated(tx, actor.realmId, botIds));
    });
  }

  /** DELETE /users/me. */
  async deactivateSelf(actor: Actor): Promise<void> {
    await this.uow.run(async (tx) => {
      const user = (await tx.users.getForUpdate(actor.realmId, actor.userId))!;
      const owners = await tx.users.lockActiveHumanOwners(actor.realmId);
      assertCanDeactivateSelf(user.role, await tx.users.countActiveHumans(actor.realmId), owners);
      user.deactivate();
      await tx.users.save(user);
      const botIds = await tx.users.deactivateBotsOwnedBy(actor.realmId, actor.userId);
      await tx.sessions.endForUser(actor.realmId, actor.userId);
      tx.afterCommit(userChangeEvents(actor.realmId, user.pullEvents()));
      tx.afterCommit(await this.bots.botsDeactivated(tx, actor.realmId, botIds));
    });
  }

  /** POST /users/{id}/reactivate. */
  async reactivateUser(actor: Actor, userId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const user = await this.loadForAdmin(tx, actor, userId, { allowBots: true, allowDeactivated: true });
      const s = user.snapshot();
      if (s.isBot && !s.isActive) {
        const holder = new SettingHolder(actor, tx.realms, tx.groups);
        const canCreate =
          (await holder.holdsRealmSetting('can_create_bots_group')) ||
          (s.botType === BotType.INCOMING_WEBHOOK && (await holder.holdsRealmSetting('can_create_write_only_bots_group')));
        if (!canCreate) throw insufficientPermission();
        if (await tx.users.activeUserNamed(actor.realmId, s.fullName)) {
          throw badRequest(
            `There is already an active bot named "${s.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
          );
        }
      }
      user.reactivate();
      await tx.users.save(user);
      // A bot's owners get it back in their realm_bots only when it was deactivated.
      const bot = s.isBot && !s.isActive ? await this.bots.audience(tx, actor.realmId, userId) : null;
      tx.afterCommit(userChangeEvents(actor.realmId, user.pullEvents(), bot));
    });
  }

  private async loadForAdmin(
    tx: Tx,
    actor: Actor,
    userId: number,
    o: { allowBots: boolean; allowDeactivated: boolean },
  ): Promise<User> {
    const user = await tx.users.getForUpdate(actor.realmId, userId);
    assertCanAccessUser(actor, user?.snapshot() ?? null, { ...o, forAdmin: true });
    return user!;
  }
}
