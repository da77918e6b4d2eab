import type { Provider } from '@nestjs/common';
import { ChannelGroupUsageOfChannels, DefaultChannelSubscriptions, InitialChannels } from '../channels/application/default-channels.js';
import { PresenceSettingReaction } from '../presence/application/presence-setting.reaction.js';
import { RealmChannelDirectory, WaitingPeriodEffects } from '../realm/application/realm.ports.js';
import { ChannelsForRealmSettings } from '../channels/application/realm-channel-directory.js';
import { ChannelNotifications } from '../channels/application/channel.ports.js';
import { NotificationBotChannelNotifications } from '../messages/application/channel-notifications.js';
import { FullMembersRefresh } from '../users/application/full-members.js';
import { ChannelGroupUsage, NewUserAnnouncements, NewUserChannels, OrganizationChannels, PresenceSettingEffects } from '../users/application/user.ports.js';
import { SignupAnnouncements } from '../messages/application/signup-announcements.js';
import { BotChannels } from '../users/application/bot.ports.js';
import { ChannelsForBots } from '../channels/application/bot-channels.js';
import { MutedSenderMessagesRead } from '../messages/application/muted-sender-messages.js';
import { MutedSenderMessages } from '../users/application/muted-users.ports.js';
import { PageCookies } from '../server/http/web-app.controller.js';
import { ensureCsrfCookie } from '../shared/auth/browser-cookies.js';

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
  // realm owns it, channels implements it: the channel-valued settings name active channels.
  { provide: RealmChannelDirectory, useExisting: ChannelsForRealmSettings },
  // channels owns it, messages implements it: Notification Bot messages about channels and subscriptions.
  { provide: ChannelNotifications, useExisting: NotificationBotChannelNotifications },
  // users owns it, channels implements it: the channels a bot's default-channel settings name.
  { provide: BotChannels, useExisting: ChannelsForBots },
  // users owns it, messages implements it: the sign-up announcement.
  { provide: NewUserAnnouncements, useExisting: SignupAnnouncements },
  // users owns it, messages implements it: muting a user marks their messages to the muter read.
  { provide: MutedSenderMessages, useExisting: MutedSenderMessagesRead },
  // users owns it, presence implements it: turning presence_enabled on or off updates the presence.
  { provide: PresenceSettingEffects, useExisting: PresenceSettingReaction },
  // server owns it (the web app's page), the session cookies implement it: the page load sets the CSRF cookie.
  { provide: PageCookies, useValue: { onPage: (req, res) => void ensureCsrfCookie(req, res) } satisfies PageCookies },
];
