import {
  assertCanChangeRealmSettings,
  assertChannelsExist,
  assertModerationChannelPrivate,
  changedRealmProperties,
  fullMemberCutoff,
  parseMessageTimeLimit,
  parseRealmRetentionDays,
  REALM_GROUP_SETTING_NAMES,
  REALM_GROUP_SETTINGS,
  type RealmGroupSettingName,
  realmChannelSettingChanges,
  type RealmChannelSettingKey,
  type RealmProperties,
} from '@app/domain/realm';
import {
  type Actor,
  expectationMismatch,
  groupSettingEquals,
  type GroupSettingValue,
  isOwner,
  normaliseGroupSetting,
  SystemGroup,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { assertValidGroupSetting } from '../../shared/application/group-setting-store.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { RealmChannelDirectory, WaitingPeriodEffects } from './realm.ports.js';
import { realmSettingsEvents, reportedChannelSettings } from './realm.events.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { toEveryone } from '../../shared/application/client-event.js';

export interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/** PATCH /realm as the controller hands it over: values as sent, absent ones undefined. */
export interface RealmSettingsRequest {
  name?: string;
  description?: string;
  allowMessageEditing?: boolean;
  messageContentEditLimitSeconds?: number | string;
  messageContentDeleteLimitSeconds?: number | string;
  moveMessagesWithinStreamLimitSeconds?: number | string;
  moveMessagesBetweenStreamsLimitSeconds?: number | string;
  messageEditHistoryVisibilityPolicy?: number;
  topicsPolicy?: number;
  messageRetentionDays?: number | string;
  waitingPeriodThreshold?: number;
  inviteRequired?: boolean;
  emailsRestrictedToDomains?: boolean;
  disallowDisposableEmailAddresses?: boolean;
  enableSpectatorAccess?: boolean;
  enableReadReceipts?: boolean;
  sendChannelEventsMessages?: boolean;
  /** The channel-valued settings: a channel id, or a negative number to disable. */
  channelSettings: Partial<Record<RealmChannelSettingKey, number>>;
  groupSettings: Partial<Record<RealmGroupSettingName, GroupSettingUpdate>>;
  /** API names of every setting the request carried (for the owner-only rule). */
  given: readonly string[];
}

/** What changed, as PATCH /realm reports it. */
export interface RealmSettingsResult {
  properties: Record<string, unknown>;
  groupSettings: Partial<Record<RealmGroupSettingName, GroupSettingValue>>;
  /** The channel settings that changed, by API name, with the values as sent. */
  channelSettings: Record<string, number>;
}

const TIME_LIMITS = [
  ['messageContentDeleteLimitSeconds', 'message_content_delete_limit_seconds'],
  ['messageContentEditLimitSeconds', 'message_content_edit_limit_seconds'],
  ['moveMessagesWithinStreamLimitSeconds', 'move_messages_within_stream_limit_seconds'],
  ['moveMessagesBetweenStreamsLimitSeconds', 'move_messages_between_streams_limit_seconds'],
] as const;

/** The entries that were given. */
const compact = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** PATCH /realm (spec 22 §7): the organization's settings, all in one transaction. */
@Injectable()
export class RealmSettingsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly waitingPeriod: WaitingPeriodEffects,
    private readonly channelDirectory: RealmChannelDirectory,
    private readonly config: ServerConfig,
  ) {}

  async updateRealm(actor: Actor, req: RealmSettingsRequest): Promise<RealmSettingsResult> {
    // Zulip's order: owner-only settings, the retention policy, then the time limits.
    assertCanChangeRealmSettings(req.given, isOwner(actor.role));
    const requested: Partial<RealmProperties> = {
      name: req.name,
      description: req.description,
      allowMessageEditing: req.allowMessageEditing,
      messageEditHistoryVisibilityPolicy: req.messageEditHistoryVisibilityPolicy,
      topicsPolicy: req.topicsPolicy,
      waitingPeriodThreshold: req.waitingPeriodThreshold,
      inviteRequired: req.inviteRequired,
      emailsRestrictedToDomains: req.emailsRestrictedToDomains,
      disallowDisposableEmailAddresses: req.disallowDisposableEmailAddresses,
      enableSpectatorAccess: req.enableSpectatorAccess,
      enableReadReceipts: req.enableReadReceipts,
      sendChannelEventsMessages: req.sendChannelEventsMessages,
    };
    if (req.messageRetentionDays !== undefined) requested.messageRetentionDays = parseRealmRetentionDays(req.messageRetentionDays);
    for (const [key, apiName] of TIME_LIMITS) {
      const raw = req[key];
      if (raw !== undefined) requested[key] = parseMessageTimeLimit(apiName, raw);
    }

    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const realm = await tx.realms.getForUpdate(realmId);
      const { changes, reported } = changedRealmProperties(realm, requested);
      const groupSettings = await this.changeGroupSettings(tx, realmId, req.groupSettings);
      const channelChanges = realmChannelSettingChanges(realm, compact(req.channelSettings));
      const named = channelChanges.flatMap((c) => (c.channelId === null ? [] : [c.channelId]));
      if (named.length > 0) assertChannelsExist(channelChanges, await this.channelDirectory.activeChannelIds(tx, realmId, named));
      if (named.length > 0) assertModerationChannelPrivate(channelChanges, await this.channelDirectory.publicChannelIds(tx, realmId, named));
      await tx.realms.updateProperties(realmId, changes);
      await tx.realms.setChannelSettings(realmId, channelChanges);
      if (changes.waitingPeriodThreshold !== undefined) {
        await this.waitingPeriod.changed(tx, realmId, fullMemberCutoff(this.clock.now(), changes.waitingPeriodThreshold));
      }
      const channelSettings = reportedChannelSettings(channelChanges, this.config.zulipClientCompat);
      const events = realmSettingsEvents(changes, groupSettings, channelSettings);
      if (events.length > 0) tx.afterCommit(toEveryone(realmId, events));
      return { properties: reported, groupSettings, channelSettings };
    });
  }

  /** Each `{new, old}` update (spec 01 §8.2), in the settings' order; returns the changed values. */
  private async changeGroupSettings(
    tx: Tx,
    realmId: number,
    updates: RealmSettingsRequest['groupSettings'],
  ): Promise<Partial<Record<RealmGroupSettingName, GroupSettingValue>>> {
    const names = REALM_GROUP_SETTING_NAMES.filter((n) => updates[n] !== undefined);
    if (names.length === 0) return {};
    const current = await tx.realms.groupSettings(realmId);
    const nobody = (await tx.groupSettings.systemGroupIds(realmId)).get(SystemGroup.NOBODY)!;
    const changed: Partial<Record<RealmGroupSettingName, GroupSettingValue>> = {};
    const stored: Record<string, number> = {};
    for (const name of names) {
      const update = updates[name]!;
      const next = normaliseGroupSetting(update.new, nobody);
      if (update.old !== undefined && !groupSettingEquals(normaliseGroupSetting(update.old, nobody), current[name])) {
        throw expectationMismatch();
      }
      if (groupSettingEquals(next, current[name])) continue;
      await assertValidGroupSetting(tx.groupSettings, realmId, name, next, REALM_GROUP_SETTINGS[name].config);
      stored[name] = await tx.groupSettings.store(realmId, next);
      changed[name] = next;
    }
    if (Object.keys(stored).length > 0) await tx.realms.setGroupSettings(realmId, stored);
    return changed;
  }
}
