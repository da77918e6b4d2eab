import { AggregateRoot } from '../shared/aggregate-root.js';
import { badRequest, DomainError, insufficientPermission } from '../shared/domain-error.js';
import type { GroupSettingValue } from '../users/group-setting.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../realm/realm-settings.js';
import { ownerRequired } from '../users/role.js';
import type { ChannelGroupSettingName, ChannelGroupSettings, TopicsPolicy } from './channel-settings.js';
import { unsupportedCombination } from './channel-settings.js';
import { assertDefaultChannelIsPublic } from './subscription.policy.js';

export interface ChannelState {
  id: number;
  realmId: number;
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  isArchived: boolean;
  folderId: number | null;
  topicsPolicy: TopicsPolicy;
  dateCreated: Date;
  creatorId: number | null;
  firstMessageId: number | null;
  groupSettings: ChannelGroupSettings;
}

export type ChannelEvent =
  | { type: 'privacy_changed'; channelId: number }
  | { type: 'renamed'; channelId: number; oldName: string; name: string }
  | { type: 'description_changed'; channelId: number }
  | { type: 'archived' | 'unarchived'; channelId: number }
  | { type: 'property_changed'; channelId: number; property: string };

export const channelAlreadyExists = (name: string) =>
  new DomainError(`Channel '${name}' already exists`, 'CHANNEL_ALREADY_EXISTS', 'conflict', { channel_name: name });

/** What PATCH asks of the privacy triple. */
export interface PrivacyRequest {
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
}

/** Facts about the actor and organization the privacy rules need (resolved by the service). */
export interface PrivacyFacts {
  contentAccess: boolean;
  canCreatePrivate: boolean;
  canCreatePublic: boolean;
  webPublicEnabled: boolean;
  canCreateWebPublic: boolean;
  isDefaultChannel: boolean;
  isModerationRequestChannel: boolean;
  everyoneGroupId: number;
}

export class Channel extends AggregateRoot<ChannelEvent> {
  private readonly changedSettings = new Set<ChannelGroupSettingName>();

  private constructor(private readonly state: ChannelState) {
    super();
  }

  static restore(state: ChannelState): Channel {
    return new Channel({ ...state, groupSettings: { ...state.groupSettings } });
  }

  get id(): number {
    return this.state.id;
  }
  get name(): string {
    return this.state.name;
  }
  get isArchived(): boolean {
    return this.state.isArchived;
  }
  get groupSettings(): Readonly<ChannelGroupSettings> {
    return this.state.groupSettings;
  }
  get inviteOnly(): boolean {
    return this.state.inviteOnly;
  }
  get isWebPublic(): boolean {
    return this.state.isWebPublic;
  }
  snapshot(): Readonly<ChannelState> {
    return { ...this.state, groupSettings: { ...this.state.groupSettings } };
  }
  settingsToStore(): ChannelGroupSettingName[] {
    return [...this.changedSettings];
  }

  /** PATCH privacy (spec 20 §3.3), checked in Zulip's order; applies the proposed triple. */
  changePrivacy(req: PrivacyRequest, f: PrivacyFacts): void {
    if (req.isPrivate === undefined && req.isWebPublic === undefined && req.historyPublicToSubscribers === undefined) return;
    const isPrivate = req.isPrivate ?? this.state.inviteOnly;
    const isWebPublic = req.isWebPublic ?? this.state.isWebPublic;
    const history =
      req.historyPublicToSubscribers ?? (req.isPrivate !== undefined ? !req.isPrivate : this.state.historyPublicToSubscribers);
    if (isWebPublic && (!history || isPrivate)) throw badRequest('Invalid parameters');
    if (!isPrivate && !history) throw badRequest('Invalid parameters');
    assertDefaultChannelIsPublic({ isPrivate, isDefault: f.isDefaultChannel });
    if (!isPrivate && f.isModerationRequestChannel) throw badRequest('Moderation request channel must be private.');
    if (!history && this.state.groupSettings.can_create_topic_group !== f.everyoneGroupId) {
      throw unsupportedCombination('history_public_to_subscribers', 'can_create_topic_group');
    }
    if (req.isPrivate !== undefined && !f.contentAccess) throw badRequest('Channel content access is required.');
    if (req.isPrivate === true && !f.canCreatePrivate) throw insufficientPermission();
    if (req.isPrivate === false && !f.canCreatePublic) throw insufficientPermission();
    if (req.isWebPublic === true) {
      if (!f.webPublicEnabled) throw badRequest('Web-public channels are not enabled.');
      if (!f.canCreateWebPublic) throw insufficientPermission();
    }
    this.state.inviteOnly = isPrivate;
    this.state.isWebPublic = isWebPublic;
    this.state.historyPublicToSubscribers = history;
    this.record({ type: 'privacy_changed', channelId: this.state.id });
  }

  /** Owners only; the owner check comes before the value is parsed (the caller parses after). */
  static assertCanSetRetention(isOwner: boolean): void {
    if (!isOwner) throw ownerRequired();
  }

  setRetention(days: number | null): void {
    if (days === this.state.messageRetentionDays) return;
    this.state.messageRetentionDays = days;
    this.record({ type: 'property_changed', channelId: this.state.id, property: 'message_retention_days' });
  }

  archive(): void {
    if (this.state.isArchived) throw badRequest('Channel is already deactivated');
    this.state.isArchived = true;
    this.record({ type: 'archived', channelId: this.state.id });
  }

  unarchive(): void {
    if (!this.state.isArchived) throw badRequest('Channel is not currently deactivated');
    this.state.isArchived = false;
    this.record({ type: 'unarchived', channelId: this.state.id });
  }

  /**
   * `canSet`: the actor holds the organization's can_set_topics_policy_group (or is an
   * administrator). `onlyEmptyTopic`: every message of the channel is in the empty topic.
   */
  setTopicsPolicy(policy: TopicsPolicy, canSet: boolean, onlyEmptyTopic: boolean): void {
    if (!canSet) throw insufficientPermission();
    if (policy === 'empty_topic_only' && !onlyEmptyTopic) {
      throw badRequest(
        `To enable this configuration, all messages in this channel must be in the ${EMPTY_TOPIC_DISPLAY_NAME} topic. Consider renaming or deleting other topics.`,
        { empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME },
      );
    }
    if (policy === this.state.topicsPolicy) return;
    this.state.topicsPolicy = policy;
    this.record({ type: 'property_changed', channelId: this.state.id, property: 'topics_policy' });
  }

  changeDescription(description: string): void {
    if (description === this.state.description) return;
    this.state.description = description;
    this.record({ type: 'description_changed', channelId: this.state.id });
  }

  /** `taken`: another channel of the organization has this name, case-insensitively. */
  rename(newName: string, taken: boolean): void {
    if (newName === this.state.name) throw badRequest('Channel already has that name.');
    const caseOnly = newName.toLowerCase() === this.state.name.toLowerCase();
    if (!caseOnly && taken) throw channelAlreadyExists(newName);
    const oldName = this.state.name;
    this.state.name = newName;
    this.record({ type: 'renamed', channelId: this.state.id, oldName, name: newName });
  }

  setFolder(folderId: number | null): void {
    if (folderId === this.state.folderId) return;
    this.state.folderId = folderId;
    this.record({ type: 'property_changed', channelId: this.state.id, property: 'folder_id' });
  }

  /** The value has been normalised and validated; an unchanged value is a no-op. */
  setGroupSetting(name: ChannelGroupSettingName, value: GroupSettingValue, unchanged: boolean): void {
    if (unchanged) return;
    this.state.groupSettings[name] = value;
    this.changedSettings.add(name);
    this.record({ type: 'property_changed', channelId: this.state.id, property: name });
  }
}
