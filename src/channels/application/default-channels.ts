import { CHANNEL_GROUP_SETTING_NAMES, CHANNEL_GROUP_SETTINGS, type ChannelGroupSettingName, INITIAL_CHANNELS, joinChannels } from '@app/domain/channels';
import { paragraphHtml } from '@app/domain/shared';
import { SystemGroup } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { ChannelGroupUsage, NewUserChannels, OrganizationChannels } from '../../users/index.js';
import { subscriptionChangeEvents } from './channel.events.js';

/** New human users join their invitation's channels and the organization's default channels (archived ones are not default). */
@Injectable()
export class DefaultChannelSubscriptions extends NewUserChannels {
  async subscribeNewUser(tx: Tx, realmId: number, userId: number, o: { channelIds: readonly number[]; includeDefaults: boolean }): Promise<void> {
    const named = (await tx.channels.findByIds(realmId, o.channelIds)).filter((c) => !c.isArchived).map((c) => c.id);
    const defaults = o.includeDefaults ? await tx.channels.defaultChannelIds(realmId) : [];
    const channelIds = [...new Set([...named, ...defaults])].sort((a, b) => a - b);
    if (channelIds.length === 0) return;
    // A user who just joined has no subscription and uses no colour yet.
    const { joined } = joinChannels([userId], channelIds, new Map(), new Map(), new Map());
    await tx.subscriptions.save(realmId, joined);
    tx.afterCommit(await subscriptionChangeEvents(tx, realmId, joined.flatMap((s) => s.pullEvents()), new Map()));
  }
}

/**
 * The channels a new organization starts with (Zulip's do_create_realm, ensure_stream with no
 * acting user): public, history public, every permission at its system-group default, and
 * `can_administer_channel_group` at role:nobody since there is no creator. All become default channels.
 * No client can have a queue in an organization that does not exist yet, so no events are sent.
 */
@Injectable()
export class InitialChannels extends OrganizationChannels {
  async createInitialChannels(tx: Tx, realmId: number, now: Date): Promise<Map<string, number>> {
    const system = await tx.groupSettings.systemGroupIds(realmId);
    const groupIds = Object.fromEntries(
      CHANNEL_GROUP_SETTING_NAMES.map((name) => {
        const def = CHANNEL_GROUP_SETTINGS[name].default;
        return [name, system.get(def === 'channel_creator' ? SystemGroup.NOBODY : def)!];
      }),
    ) as Record<ChannelGroupSettingName, number>;
    const ids = new Map<string, number>();
    for (const c of INITIAL_CHANNELS) {
      const id = await tx.channels.insert({
        realmId,
        name: c.name,
        description: c.description,
        renderedDescription: paragraphHtml(c.description),
        inviteOnly: false,
        isWebPublic: false,
        historyPublicToSubscribers: true,
        messageRetentionDays: null,
        topicsPolicy: 'inherit',
        folderId: null,
        dateCreated: now,
        creatorId: null,
        groupIds,
      });
      ids.set(c.name, id);
    }
    await tx.channels.setDefault(realmId, [...ids.values()], true);
    return ids;
  }

  async subscribeFounder(tx: Tx, realmId: number, userId: number): Promise<void> {
    const channelIds = [...(await tx.channels.defaultChannelIds(realmId))].sort((a, b) => a - b);
    const { joined } = joinChannels([userId], channelIds, new Map(), new Map(), new Map());
    await tx.subscriptions.save(realmId, joined);
    // The organization is being created in this transaction: no event queue can be registered
    // in it yet, so the subscriptions' events have no reader (register reads them from the rows).
    for (const s of joined) s.pullEvents();
  }
}

/** Which channels use a user group in a permission setting (deactivating the group is refused). */
@Injectable()
export class ChannelGroupUsageOfChannels extends ChannelGroupUsage {
  channelsUsing(tx: Tx, realmId: number, settingGroupIds: readonly number[]): Promise<{ channelId: number; settings: string[] }[]> {
    return tx.channelQueries.channelsUsingGroups(realmId, settingGroupIds);
  }
}
