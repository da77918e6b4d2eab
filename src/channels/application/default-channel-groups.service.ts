import {
  channelsToAdd,
  channelsToRemove,
  checkNewDefaultChannelGroupName,
  type DefaultChannelGroup,
  defaultChannelGroupExists,
  defaultChannelGroupNotFound,
  defaultChannelGroupOp,
  hasContentAccess,
  invalidChannelName,
  type NamedChannel,
  pairKey,
  planNewDefaultChannelGroup,
  assertGroupInfoChange,
  type Viewer,
} from '@app/domain/channels';
import { type Actor, isGuest, type Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';

/** The organization's default channel groups, in the transaction (every statement names the organization). */
export abstract class DefaultChannelGroupRepository {
  /** Every group of the organization, its channels by channel name. */
  abstract list(realmId: number): Promise<DefaultChannelGroup[]>;
  /** The group, its row locked until COMMIT; null when the organization has no such group. */
  abstract lock(realmId: number, groupId: number): Promise<DefaultChannelGroup | null>;
  abstract nameTaken(realmId: number, name: string): Promise<boolean>;
  abstract insert(realmId: number, name: string, description: string, channelIds: readonly number[]): Promise<number>;
  abstract update(realmId: number, groupId: number, changes: { name?: string; description?: string }): Promise<void>;
  abstract addChannels(realmId: number, groupId: number, channelIds: readonly number[]): Promise<void>;
  abstract removeChannels(realmId: number, groupId: number, channelIds: readonly number[]): Promise<void>;
  abstract remove(realmId: number, groupId: number): Promise<void>;
  /** Takes the channel out of every group; whether any group had it. */
  abstract removeChannelEverywhere(realmId: number, channelId: number): Promise<boolean>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly defaultChannelGroups: DefaultChannelGroupRepository;
  }
}

/** A group as the API shows it (Zulip's DefaultStreamGroup.to_dict). */
export const presentDefaultChannelGroup = (g: DefaultChannelGroup) => ({ name: g.name, id: g.id, description: g.description, streams: g.channelIds });

/** Zulip's default_stream_groups_to_dicts_sorted: by name. */
export const presentDefaultChannelGroups = (groups: readonly DefaultChannelGroup[]) =>
  [...groups].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(presentDefaultChannelGroup);

/**
 * Zulip's notify_default_stream_groups: every group of the organization, to its active users who
 * are not guests (guests' realm_default_stream_groups is always empty).
 */
export async function defaultChannelGroupsEvent(tx: Tx, realmId: number): Promise<ClientEvent> {
  const groups = presentDefaultChannelGroups(await tx.defaultChannelGroups.list(realmId));
  const recipients = (await tx.channelQueries.activeUsers(realmId)).filter((u) => !isGuest(u.role as Role)).map((u) => u.id);
  return { realmId, event: { type: 'default_stream_groups', default_stream_groups: groups }, userIds: recipients };
}

/**
 * Zulip's do_deactivate_stream: an archived channel leaves every group, one
 * `default_stream_groups` event per group it left (each with the groups as they stand then).
 */
export async function removeArchivedChannelFromGroups(tx: Tx, realmId: number, channelId: number): Promise<void> {
  const groups = await tx.defaultChannelGroups.list(realmId);
  const affected = groups.filter((g) => g.channelIds.includes(channelId));
  if (affected.length === 0) return;
  await tx.defaultChannelGroups.removeChannelEverywhere(realmId, channelId);
  const recipients = (await tx.channelQueries.activeUsers(realmId)).filter((u) => !isGuest(u.role as Role)).map((u) => u.id);
  tx.afterCommit(
    affected.map((group) => {
      group.channelIds = group.channelIds.filter((id) => id !== channelId);
      return { realmId, event: { type: 'default_stream_groups', default_stream_groups: presentDefaultChannelGroups(groups) }, userIds: recipients };
    }),
  );
}

/**
 * The default channel group endpoints (Zulip's zerver/views/streams.py and
 * zerver/actions/default_streams.py); organization administrators only (the guard checks).
 */
@Injectable()
export class DefaultChannelGroupsService {
  constructor(private readonly uow: UnitOfWork) {}

  /** POST /default_stream_groups/create. */
  async createGroup(actor: Actor, name: string, description: string, channelNames: readonly string[]): Promise<void> {
    await this.uow.run(async (tx) => {
      const channels = await this.accessByNames(tx, actor, channelNames);
      const channelIds = planNewDefaultChannelGroup(name, channels, await tx.channels.defaultChannelIds(actor.realmId));
      if (await tx.defaultChannelGroups.nameTaken(actor.realmId, name)) throw defaultChannelGroupExists(name);
      await tx.defaultChannelGroups.insert(actor.realmId, name, description, channelIds);
      tx.afterCommit([await defaultChannelGroupsEvent(tx, actor.realmId)]);
    });
  }

  /** PATCH /default_stream_groups/{id}: the name first, then the description (one event each, as Zulip). */
  async updateGroupInfo(actor: Actor, groupId: number, newName: string | null, newDescription: string | null): Promise<void> {
    assertGroupInfoChange(newName, newDescription);
    await this.uow.run(async (tx) => {
      const group = await this.lockGroup(tx, actor, groupId);
      const events: ClientEvent[] = [];
      if (newName !== null) {
        checkNewDefaultChannelGroupName(group, newName);
        if (await tx.defaultChannelGroups.nameTaken(actor.realmId, newName)) throw defaultChannelGroupExists(newName);
        await tx.defaultChannelGroups.update(actor.realmId, group.id, { name: newName });
        events.push(await defaultChannelGroupsEvent(tx, actor.realmId));
      }
      if (newDescription !== null) {
        await tx.defaultChannelGroups.update(actor.realmId, group.id, { description: newDescription });
        events.push(await defaultChannelGroupsEvent(tx, actor.realmId));
      }
      tx.afterCommit(events);
    });
  }

  /** PATCH /default_stream_groups/{id}/streams: the group, then the channels, then `op`. */
  async updateGroupChannels(actor: Actor, groupId: number, op: string, channelNames: readonly string[]): Promise<void> {
    await this.uow.run(async (tx) => {
      const group = await this.lockGroup(tx, actor, groupId);
      const channels = await this.accessByNames(tx, actor, channelNames);
      if (defaultChannelGroupOp(op) === 'add') {
        const ids = channelsToAdd(group, channels, await tx.channels.defaultChannelIds(actor.realmId));
        await tx.defaultChannelGroups.addChannels(actor.realmId, group.id, ids);
      } else {
        await tx.defaultChannelGroups.removeChannels(actor.realmId, group.id, channelsToRemove(group, channels));
      }
      tx.afterCommit([await defaultChannelGroupsEvent(tx, actor.realmId)]);
    });
  }

  /** DELETE /default_stream_groups/{id}. */
  async removeGroup(actor: Actor, groupId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const group = await this.lockGroup(tx, actor, groupId);
      await tx.defaultChannelGroups.remove(actor.realmId, group.id);
      tx.afterCommit([await defaultChannelGroupsEvent(tx, actor.realmId)]);
    });
  }

  private async lockGroup(tx: Tx, actor: Actor, groupId: number): Promise<DefaultChannelGroup> {
    const group = isStorableId(groupId) ? await tx.defaultChannelGroups.lock(actor.realmId, groupId) : null;
    if (group === null) throw defaultChannelGroupNotFound(groupId);
    return group;
  }

  /**
   * Zulip's access_stream_by_name for each name, in order: a channel of the organization (named
   * case-insensitively, surrounding whitespace aside), not archived, whose content the caller may
   * read; otherwise "Invalid channel name '<name as sent>'". All looked up in one statement.
   */
  private async accessByNames(tx: Tx, actor: Actor, names: readonly string[]): Promise<NamedChannel[]> {
    if (names.length === 0) return [];
    const found = await tx.channels.findByNames(actor.realmId, names.map((n) => n.trim()));
    const byName = new Map(found.map((c) => [c.name.toLowerCase(), c]));
    const subscriptions = await tx.subscriptions.records([actor.userId], found.map((c) => c.id));
    const viewer: Viewer = { userId: actor.userId, role: actor.role, groupIds: await tx.groups.groupIdsOfUser(actor.userId) };
    return names.map((name) => {
      const channel = byName.get(name.trim().toLowerCase());
      const subscribed = channel !== undefined && subscriptions.get(pairKey(actor.userId, channel.id))?.active === true;
      if (channel === undefined || channel.isArchived || !hasContentAccess(channel, viewer, subscribed)) throw invalidChannelName(name);
      return { id: channel.id, name: channel.name };
    });
  }
}
