import {
  assertCanCreateChannel,
  type Channel,
  CHANNEL_GROUP_SETTINGS,
  type ChannelGroupSettingName,
  type CreationFacts,
  effectiveHistory,
  type NewChannelRequest,
  normaliseDescription,
  type TopicsPolicy,
} from '@app/domain/channels';
import { badRequest, insufficientPermission, paragraphHtml } from '@app/domain/shared';
import { type Actor, type GroupSettingValue, isAdmin, isOwner, normaliseGroupSetting, SystemGroup } from '@app/domain/users';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { type ActorFacts, canSetDeleteMessagePolicy, canSetTopicsPolicy, holdsRealmSetting, validateChannelGroupSetting } from './actor-facts.js';
import { defaultChannelsEvent, streamCreateEvents } from './channel.events.js';

/** One channel a request names (and creates when it does not exist). */
export interface SubscriptionRequestItem {
  name: string;
  color?: string;
  description?: string;
}

/** What a request says about the channels it creates. */
export interface ChannelCreationOptions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers?: boolean;
  topicsPolicy?: TopicsPolicy;
  folderId?: number | null;
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
}

/** A topics policy other than `inherit` needs the organization's permission to set topics policies. */
export function assertCanChooseTopicsPolicy(facts: ActorFacts, policy: TopicsPolicy | undefined): void {
  if (policy !== undefined && policy !== 'inherit' && !canSetTopicsPolicy(facts)) throw insufficientPermission();
}

function creationFacts(facts: ActorFacts): CreationFacts {
  const role = facts.viewer.role;
  return {
    everyoneGroupId: facts.systemGroups.get(SystemGroup.EVERYONE)!,
    nobodyGroupId: facts.systemGroups.get(SystemGroup.NOBODY)!,
    isAdmin: isAdmin(role),
    isOwner: isOwner(role),
    canSetDeleteMessagePolicy: canSetDeleteMessagePolicy(facts),
    canCreatePrivate: holdsRealmSetting(facts, 'can_create_private_channel_group'),
    canCreatePublic: holdsRealmSetting(facts, 'can_create_public_channel_group'),
    webPublicEnabled: facts.webPublicEnabled,
    canCreateWebPublic: holdsRealmSetting(facts, 'can_create_web_public_channel_group'),
  };
}

/** The group settings the request supplied, normalised and validated in the request's order. */
async function suppliedSettings(tx: Tx, realmId: number, facts: ActorFacts, req: ChannelCreationOptions): Promise<NewChannelRequest['groupSettings']> {
  const nobody = facts.systemGroups.get(SystemGroup.NOBODY)!;
  const given: NewChannelRequest['groupSettings'] = {};
  for (const [name, value] of Object.entries(req.groupSettings) as [ChannelGroupSettingName, GroupSettingValue][]) {
    if (value === undefined) continue;
    given[name] = normaliseGroupSetting(value, nobody);
    await validateChannelGroupSetting(tx, realmId, name, given[name]);
  }
  return given;
}

/** Every permission setting of a new channel, stored: the supplied values, else the defaults (§1.3). */
async function storedSettings(
  tx: Tx,
  actor: Actor,
  facts: ActorFacts,
  given: NewChannelRequest['groupSettings'],
): Promise<Record<ChannelGroupSettingName, number>> {
  const groupIds = {} as Record<ChannelGroupSettingName, number>;
  for (const [name, def] of Object.entries(CHANNEL_GROUP_SETTINGS) as [ChannelGroupSettingName, (typeof CHANNEL_GROUP_SETTINGS)[ChannelGroupSettingName]][]) {
    const value: GroupSettingValue =
      given[name] ??
      (def.default === 'channel_creator' ? { directMembers: [actor.userId], directSubgroups: [] } : facts.systemGroups.get(def.default)!);
    groupIds[name] = await tx.groupSettings.store(actor.realmId, value);
  }
  return groupIds;
}

/**
 * Spec 20 §2.2 steps 5 and 8: checks what the request asks of new channels, creates them (the
 * caller is their creator), makes them default channels when asked and queues their `stream`
 * `create` events. `retention`: the parsed message_retention_days.
 */
export async function createChannels(
  tx: Tx,
  actor: Actor,
  facts: ActorFacts,
  items: readonly SubscriptionRequestItem[],
  req: ChannelCreationOptions,
  retention: number | null,
  now: Date,
): Promise<Channel[]> {
  const realmId = actor.realmId;
  const given = await suppliedSettings(tx, realmId, facts, req);
  const { inviteOnly: asked, isWebPublic, historyPublicToSubscribers, isDefaultStream: isDefault } = req;
  assertCanCreateChannel({ inviteOnly: asked, isWebPublic, historyPublicToSubscribers, isDefault, messageRetentionDays: retention, groupSettings: given }, creationFacts(facts));
  if (req.folderId !== undefined && req.folderId !== null && !(await tx.channelFolders.exists(realmId, req.folderId))) {
    throw badRequest('Invalid channel folder ID');
  }
  const inviteOnly = asked && !isWebPublic;
  const history = isWebPublic ? true : effectiveHistory({ inviteOnly, historyPublicToSubscribers });
  const created: Channel[] = [];
  for (const item of items) {
    const groupIds = await storedSettings(tx, actor, facts, given);
    const description = normaliseDescription(item.description ?? '');
    const id = await tx.channels.insert({
      realmId,
      name: item.name,
      description,
      renderedDescription: paragraphHtml(description),
      inviteOnly,
      isWebPublic,
      historyPublicToSubscribers: history,
      messageRetentionDays: retention,
      topicsPolicy: req.topicsPolicy ?? 'inherit',
      folderId: req.folderId ?? null,
      dateCreated: now,
      creatorId: actor.userId,
      groupIds,
    });
    created.push((await tx.channels.findById(realmId, id))!);
  }
  tx.afterCommit(await streamCreateEvents(tx, realmId, created.map((c) => c.id)));
  if (isDefault && created.length > 0) {
    await tx.channels.setDefault(realmId, created.map((c) => c.id), true);
    tx.afterCommit([await defaultChannelsEvent(tx, realmId)]);
  }
  return created;
}
