import { Foundation1763800000000 } from './1763800000000-Foundation.js';
import { Channels1763900000000 } from './1763900000000-Channels.js';
import { Messages1764000000000 } from './1764000000000-Messages.js';
import { RealmResources1764100000000 } from './1764100000000-RealmResources.js';
import { UserStatus1764200000000 } from './1764200000000-UserStatus.js';
import { OrgContent1764300000000 } from './1764300000000-OrgContent.js';
import { Events1764600000000 } from './1764600000000-Events.js';
import { Reminders1764500000000 } from './1764500000000-Reminders.js';
import { PushDevices1764400000000 } from './1764400000000-PushDevices.js';
import { Reactions1764700000000 } from './1764700000000-Reactions.js';
import { Presence1764800000000 } from './1764800000000-Presence.js';
import { UserSettings1764900000000 } from './1764900000000-UserSettings.js';
import { ReadReceipts1765000000000 } from './1765000000000-ReadReceipts.js';
import { ScheduledMessages1765100000000 } from './1765100000000-ScheduledMessages.js';
import { AlertWordsBotStorage1765200000000 } from './1765200000000-AlertWordsBotStorage.js';
import { AttachmentSpace1765400000000 } from './1765400000000-AttachmentSpace.js';
import { AnnouncementChannels1765600000000 } from './1765600000000-AnnouncementChannels.js';
import { ChannelEventsMessages1765600000001 } from './1765600000001-ChannelEventsMessages.js';
import { MutedUsers1765700000000 } from './1765700000000-MutedUsers.js';
import { ChannelFolderNamesWhenActive1765713013000 } from './1765713013000-ChannelFolderNamesWhenActive.js';
import { UploadQuota1765800000100 } from './1765800000100-UploadQuota.js';
import { EventJournalXid1765900000000 } from './1765900000000-EventJournalXid.js';
import { SettingsVersion1765900000100 } from './1765900000100-SettingsVersion.js';
import { BackgroundJobs1765900000200 } from './1765900000200-BackgroundJobs.js';
import { EventQueues1765900001000 } from './1765900001000-EventQueues.js';
import { PasswordResetTokens1766000000700 } from './1766000000700-PasswordResetTokens.js';
import { Sessions1766100000000 } from './1766100000000-Sessions.js';
import { CredentialNotifications1766200000000 } from './1766200000000-CredentialNotifications.js';
import { RegisterSettingsVersion1766300000000 } from './1766300000000-RegisterSettingsVersion.js';
import { DirectMessageMemberIndex1766400000000 } from './1766400000000-DirectMessageMemberIndex.js';
import { WebPublicChannelsVersion1766400000100 } from './1766400000100-WebPublicChannelsVersion.js';
import { OnboardingSteps1766400000200 } from './1766400000200-OnboardingSteps.js';
import { DefaultChannelGroups1766500002500 } from './1766500002500-DefaultChannelGroups.js';
import { NavigationViews1766500002510 } from './1766500002510-NavigationViews.js';
import { Avatars1766500002700 } from './1766500002700-Avatars.js';
import { RealmExports1766500003000 } from './1766500003000-RealmExports.js';
import { ImageThumbnails1766500003100 } from './1766500003100-ImageThumbnails.js';
import { RealmUserDefaults1766500004000 } from './1766500004000-RealmUserDefaults.js';
import { Submessages1766500005200 } from './1766500005200-Submessages.js';

/** Every migration, oldest first (ESM builds cannot glob-load them). */
export const MIGRATIONS = [
  Foundation1763800000000,
  Channels1763900000000,
  Messages1764000000000,
  RealmResources1764100000000,
  UserStatus1764200000000,
  OrgContent1764300000000,
  PushDevices1764400000000,
  Reminders1764500000000,
  Events1764600000000,
  Reactions1764700000000,
  Presence1764800000000,
  UserSettings1764900000000,
  ReadReceipts1765000000000,
  ScheduledMessages1765100000000,
  AlertWordsBotStorage1765200000000,
  AttachmentSpace1765400000000,
  AnnouncementChannels1765600000000,
  ChannelEventsMessages1765600000001,
  MutedUsers1765700000000,
  ChannelFolderNamesWhenActive1765713013000,
  UploadQuota1765800000100,
  EventJournalXid1765900000000,
  SettingsVersion1765900000100,
  BackgroundJobs1765900000200,
  EventQueues1765900001000,
  PasswordResetTokens1766000000700,
  Sessions1766100000000,
  CredentialNotifications1766200000000,
  RegisterSettingsVersion1766300000000,
  DirectMessageMemberIndex1766400000000,
  WebPublicChannelsVersion1766400000100,
  OnboardingSteps1766400000200,
  DefaultChannelGroups1766500002500,
  NavigationViews1766500002510,
  Avatars1766500002700,
  RealmExports1766500003000,
  ImageThumbnails1766500003100,
  RealmUserDefaults1766500004000,
  Submessages1766500005200,
];
