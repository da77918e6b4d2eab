import type { Provider } from '@nestjs/common';
import { ChannelGroupUsageOfChannels, DefaultChannelSubscriptions, InitialChannels } from '../channels/application/default-channels.js';
import { PresenceSettingReaction } from '../presence/application/presence-setting.reaction.js';
import { WaitingPeriodEffects } from '../realm/application/realm.ports.js';
import { FullMembersRefresh } from '../users/application/full-members.js';
import { ChannelGroupUsage, NewUserChannels, OrganizationChannels, PresenceSettingEffects } from '../users/application/user.ports.js';

/**
 * Ports one context owns and a context that depends on it implements (the owner may not import
 * the implementer: that would be an arrow against CONTEXT_DEPENDENCIES in eslint.config.js).
 */
export const CrossContextPorts: Provider[] = [
  // users owns it, channels implements it: a new user joins the default channels.
  { provide: NewUserChannels, useExisting: DefaultChannelSubscriptions },
  // users owns it, channels implements it: a new organization starts with Zulip's three default channels.
  { provide: OrganizationChannels, useExisting: InitialChannels },
  // users owns it, channels implements it: a group a channel's setting uses cannot be deactivated.
  { provide: ChannelGroupUsage, useExisting: ChannelGroupUsageOfChannels },
  // realm owns it, users implements it: a new waiting period changes who is a full member.
  { provide: WaitingPeriodEffects, useExisting: FullMembersRefresh },
  // users owns it, presence implements it: turning presence_enabled on or off updates the presence.
  { provide: PresenceSettingEffects, useExisting: PresenceSettingReaction },
];
