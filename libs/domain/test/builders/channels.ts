import { Channel, type ChannelState } from '../../src/channels/channel.js';
import { GROUP, T0 } from './common.js';

/** The channel permission settings of a new channel created by user 50. */
export const channelSettings = (o: Partial<ChannelState['groupSettings']> = {}): ChannelState['groupSettings'] => ({
  can_add_subscribers_group: GROUP.NOBODY,
  can_administer_channel_group: { directMembers: [50], directSubgroups: [] },
  can_create_topic_group: GROUP.EVERYONE,
  can_delete_any_message_group: GROUP.NOBODY,
  can_delete_own_message_group: GROUP.NOBODY,
  can_move_messages_out_of_channel_group: GROUP.NOBODY,
  can_move_messages_within_channel_group: GROUP.NOBODY,
  can_remove_subscribers_group: GROUP.ADMINS,
  can_resolve_topics_group: GROUP.NOBODY,
  can_send_message_group: GROUP.EVERYONE,
  can_subscribe_group: GROUP.NOBODY,
  ...o,
});

/** The state of a public channel #general (id 9) created by user 50. */
export const channelState = (o: Partial<ChannelState> = {}): ChannelState => ({
  id: 9,
  realmId: 1,
  name: 'general',
  description: '',
  inviteOnly: false,
  isWebPublic: false,
  historyPublicToSubscribers: true,
  messageRetentionDays: null,
  isArchived: false,
  folderId: null,
  topicsPolicy: 'inherit',
  dateCreated: T0,
  creatorId: 50,
  firstMessageId: null,
  groupSettings: channelSettings(),
  ...o,
});

/** A channel aggregate in one line: `aChannel({ inviteOnly: true })`. */
export const aChannel = (o: Partial<ChannelState> = {}): Channel => Channel.restore(channelState(o));
