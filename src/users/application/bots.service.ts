import { badRequest } from '@app/domain/shared';
import {
  type Actor,
  assertCanManageBot,
  assertCanOwnBot,
  checkFullName,
  directSystemGroupsFor,
  isAdmin,
  isFullMember,
  isGuest,
  noSuchBot,
  type Role,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { type ClientEvent, toEveryone } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { type BotChange, type BotChannel, BotChannels, type BotRecord, type StoredBot } from './bot.ports.js';
import { type BotAudience, botAddedEvent, botOwnersAmong, botOwnerUserIds, userChangeEvents } from './user.events.js';
import { botAvatarUrl } from './user.views.js';

/** Kept where the context's index and the bots controller import them from. */

export interface BotUpdate {
  fullName?: string;
  role?: Role;
  botOwnerId?: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
}

type Payload = Record<string, unknown> & { type: string };

/** Bot management: GET/PATCH/DELETE /bots/{id}, api_key regeneration, the realm_bots section. */
@Injectable()
export class BotsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly secrets: Secrets,
    private readonly channels: BotChannels,
  ) {}

  /** Stored bots as shown: their default channels' names, and whether one is private. */
  private async shown(tx: Tx, realmId: number, stored: readonly StoredBot[]): Promise<BotRecord[]> {
    const ids = [...new Set(stored.flatMap((b) => [b.defaultSendingStreamId, b.defaultEventsRegisterStreamId]).filter((id): id is number => id !== null))];
    const channels = ids.length > 0 ? await this.channels.byIds(tx, realmId, ids) : new Map<number, BotChannel>();
    return stored.map(({ defaultSendingStreamId: s, defaultEventsRegisterStreamId: r, ...b }) => {
      const sending = s === null ? undefined : channels.get(s);
      const register = r === null ? undefined : channels.get(r);
      return {
        ...b,
        defaultSendingStream: sending?.name ?? null,
        defaultEventsRegisterStream: register?.name ?? null,
        hasPrivateDefaultChannel: (sending?.inviteOnly ?? false) || (register?.inviteOnly ?? false),
      };
    });
  }

  private async listShown(tx: Tx, realmId: number, o: { ownerId?: number; activeOnly?: boolean }): Promise<BotRecord[]> {
    return this.shown(tx, realmId, await tx.bots.list(realmId, o));
  }

  private async findShown(tx: Tx, realmId: number, botId: number): Promise<BotRecord | null> {
    const stored = await tx.bots.find(realmId, botId);
    return stored === null ? null : (await this.shown(tx, realmId, [stored]))[0];
  }

  /** GET /bots: the caller's active bots, oldest first (administrators too see only their own). */
  listBots(actor: Actor): Promise<BotRecord[]> {
    return this.uow.run((tx) => this.listShown(tx, actor.realmId, { ownerId: actor.userId, activeOnly: true }));
  }

  /** register's realm_bots: every bot of the organization for administrators, else the caller's (deactivated included). */
  realmBots(actor: Actor): Promise<BotRecord[]> {
    return this.uow.run((tx) => this.listShown(tx, actor.realmId, isAdmin(actor.role) ? {} : { ownerId: actor.userId }));
  }

  /** A bot as it is now, with the users whose realm_bots list it. */
  async audience(tx: Tx, realmId: number, botId: number): Promise<BotAudience> {
    const bot = await this.findShown(tx, realmId, botId);
    if (bot === null) throw noSuchBot();
    return { bot, owners: await botOwnerUserIds(tx, realmId, bot) };
  }

  private async load(tx: Tx, actor: Actor, botId: number) {
    const user = await tx.users.getForUpdate(actor.realmId, botId);
    assertCanManageBot(actor, user?.snapshot() ?? null);
    return user!;
  }

  private async channelId(tx: Tx, actor: Actor, name: string | undefined): Promise<number | null | undefined> {
    if (name === undefined) return undefined;
    if (name === '') return null;
    const channel = await this.channels.accessibleByName(tx, actor.realmId, { id: actor.userId, isGuest: isGuest(actor.role) }, name);
    if (channel === null) throw badRequest(`Invalid channel name '${name}'`);
    return channel.id;
  }

  /** PATCH /bots/{id}, in Zulip's order: name, role, owner, default channels. */
  async updateBot(actor: Actor, botId: number, u: BotUpdate): Promise<BotRecord> {
    return this.uow.run(async (tx) => {
      const user = await this.load(tx, actor, botId);
      const before = (await this.findShown(tx, actor.realmId, botId))!;
      if (u.fullName !== undefined) {
        const fullName = checkFullName(u.fullName);
        if (fullName !== before.fullName) {
          if (await tx.users.activeUserNamed(actor.realmId, fullName)) throw badRequest('Name is already in use.');
          user.rename(fullName);
        }
      }
      if (u.role !== undefined && u.role !== user.role) {
        user.changeRole(actor, u.role, await tx.users.lockActiveHumanOwners(actor.realmId));
        const realm = await tx.realms.get(actor.realmId);
        const s = user.snapshot();
        const full = isFullMember(s.role, s.dateJoined, realm.waitingPeriodThreshold, this.clock.now());
        await tx.groups.setSystemGroupMemberships(actor.realmId, botId, directSystemGroupsFor(s.role, full));
      }
      await tx.users.save(user);

      const change: BotChange = {};
      let newOwner: number | null = null;
      if (u.botOwnerId !== undefined) {
        const owner = await tx.users.findById(actor.realmId, u.botOwnerId);
        assertCanOwnBot(owner);
        if (owner!.id !== before.ownerId) {
          change.botOwnerId = owner!.id;
          newOwner = owner!.id;
        }
      }
      change.defaultSendingStreamId = await this.channelId(tx, actor, u.defaultSendingStream);
      change.defaultEventsRegisterStreamId = await this.channelId(tx, actor, u.defaultEventsRegisterStream);
      change.defaultAllPublicStreams = u.defaultAllPublicStreams;
      await tx.bots.update(actor.realmId, botId, change);
      const after = (await this.findShown(tx, actor.realmId, botId))!;

      const owners = await botOwnerUserIds(tx, actor.realmId, after);
      const events = userChangeEvents(actor.realmId, user.pullEvents(), { bot: after, owners });
      const bot = (fields: Record<string, unknown>) => ({ type: 'realm_bot', op: 'update', bot: { user_id: botId, ...fields } });
      const send = (event: Payload, userIds: readonly number[]) => {
        if (userIds.length > 0) events.push({ realmId: actor.realmId, event, userIds });
      };
      if (newOwner !== null) events.push(...(await this.ownerChangeEvents(tx, actor.realmId, before, after, owners)));
      if (u.defaultSendingStream !== undefined) send(bot({ default_sending_stream: after.defaultSendingStream }), owners);
      if (u.defaultEventsRegisterStream !== undefined) {
        send(bot({ default_events_register_stream: after.defaultEventsRegisterStream }), owners);
      }
      if (u.defaultAllPublicStreams !== undefined) send(bot({ default_all_public_streams: after.defaultAllPublicStreams }), owners);
      tx.afterCommit(events);
      return after;
    });
  }

  /** Zulip's do_change_bot_owner: delete for a non-admin previous owner, add for a non-admin new one, update for the rest. */
  private async ownerChangeEvents(tx: Tx, realmId: number, before: BotRecord, after: BotRecord, owners: readonly number[]): Promise<ClientEvent[]> {
    const admins = new Set(await tx.bots.humanAdminIds(realmId));
    const events: ClientEvent[] = [];
    let updateUsers = new Set(owners);
    const previous = before.ownerId;
    if (previous !== null && !admins.has(previous)) {
      events.push({ realmId, event: { type: 'realm_bot', op: 'delete', bot: { user_id: after.id } }, userIds: [previous] });
      updateUsers.delete(previous);
    }
    if (!admins.has(after.ownerId!)) {
      events.push({ realmId, event: botAddedEvent(after), userIds: [after.ownerId!] });
      updateUsers = new Set([...updateUsers].filter((id) => id !== after.ownerId));
    }
    if (updateUsers.size > 0) {
      events.push({
        realmId,
        event: { type: 'realm_bot', op: 'update', bot: { user_id: after.id, owner_id: after.ownerId } },
        userIds: [...updateUsers],
      });
    }
    events.push(...toEveryone(realmId, [{ type: 'realm_user', op: 'update', person: { user_id: after.id, bot_owner_id: after.ownerId } }]));
    return events;
  }

  /** DELETE /bots/{id}: deactivates the bot (a deactivated one stays deactivated, silently). */
  async deactivateBot(actor: Actor, botId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const user = await this.load(tx, actor, botId);
      if (!user.isActive) return;
      user.deactivate();
      await tx.users.save(user);
      tx.afterCommit(userChangeEvents(actor.realmId, user.pullEvents(), await this.audience(tx, actor.realmId, botId)));
    });
  }

  /** GET /bots/{id}/api_key (feature level 463). */
  async getBotApiKey(actor: Actor, botId: number): Promise<string> {
    return this.uow.run(async (tx) => {
      const target = await tx.users.findById(actor.realmId, botId);
      assertCanManageBot(actor, target);
      return (await this.findShown(tx, actor.realmId, botId))!.apiKey;
    });
  }

  /** POST /bots/{id}/api_key/regenerate. */
  async regenerateBotApiKey(actor: Actor, botId: number): Promise<string> {
    const apiKey = this.secrets.apiKey();
    return this.uow.run(async (tx) => {
      await this.load(tx, actor, botId);
      await tx.bots.update(actor.realmId, botId, { apiKey });
      const { owners } = await this.audience(tx, actor.realmId, botId);
      tx.afterCommit([{ realmId: actor.realmId, event: { type: 'realm_bot', op: 'update', bot: { user_id: botId, api_key: apiKey } }, userIds: owners }]);
      return apiKey;
    });
  }

  /**
   * Bots deactivated with their owner (Zulip's cascade, one statement, no aggregate loaded): each
   * is announced as its own deactivation is, realm_user and realm_bot updates bot by bot.
   */
  async botsDeactivated(tx: Tx, realmId: number, botIds: readonly number[]): Promise<ClientEvent[]> {
    if (botIds.length === 0) return [];
    const wanted = new Set(botIds);
    const bots = (await this.listShown(tx, realmId, {})).filter((b) => wanted.has(b.id));
    const admins = await tx.bots.humanAdminIds(realmId);
    return bots.flatMap((bot) => userChangeEvents(realmId, [{ type: 'deactivated', userId: bot.id }], { bot, owners: botOwnersAmong(bot, admins) }));
  }

  /** Zulip's do_change_avatar_fields for a bot: its new avatar URL, for its owners (a non-bot: none). */
  async botAvatarChanged(tx: Tx, realmId: number, userId: number): Promise<ClientEvent[]> {
    const bot = await this.findShown(tx, realmId, userId);
    if (bot === null) return [];
    const event = { type: 'realm_bot', op: 'update', bot: { user_id: userId, avatar_url: botAvatarUrl(bot) } };
    return [{ realmId, event, userIds: await botOwnerUserIds(tx, realmId, bot) }];
  }

  /** The realm_bot `add` event of a bot just created, for its owners. */
  async botAdded(tx: Tx, realmId: number, botId: number): Promise<ClientEvent[]> {
    const { bot, owners } = await this.audience(tx, realmId, botId);
    return [{ realmId, event: botAddedEvent(bot), userIds: owners }];
  }
}
