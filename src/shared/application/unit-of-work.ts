import type { ChannelQueries, ChannelRepository } from '../../channels/application/channel.ports.js';
import type { MessageRepository } from '../../messages/application/message.ports.js';
import type { DraftRepository, ReminderRepository, SavedSnippetRepository } from '../../drafts/application/draft.ports.js';
import type { InvitationRepository } from '../../invitations/application/invitation.ports.js';
import type { RealmEmojiRepository } from '../../emoji/application/realm-emoji.ports.js';
import type { UserStatusRepository } from '../../users/application/user-status.ports.js';
import type { PushDeviceRepository } from '../../push/application/push.ports.js';
import type { LinkifierRepository, PlaygroundRepository, RealmRepository } from '../../realm/application/realm.ports.js';
import type { UserGroupRepository, UserRepository } from '../../users/application/user.ports.js';
import type { ClientEvent } from './client-event.js';
import type { EmailSender } from './email-sender.js';

/** The repositories of one transaction, plus the events to publish once it commits. */
export interface Tx {
  readonly users: UserRepository;
  readonly groups: UserGroupRepository;
  readonly realms: RealmRepository;
  readonly channels: ChannelRepository;
  /** The channel read model, seeing this transaction's writes (event payloads). */
  readonly channelQueries: ChannelQueries;
  readonly messages: MessageRepository;
  readonly drafts: DraftRepository;
  readonly savedSnippets: SavedSnippetRepository;
  readonly reminders: ReminderRepository;
  readonly invitations: InvitationRepository;
  /** Emails leave only if the transaction commits (outbox). */
  readonly emails: EmailSender;
  readonly userStatus: UserStatusRepository;
  readonly realmEmoji: RealmEmojiRepository;
  readonly linkifiers: LinkifierRepository;
  readonly playgrounds: PlaygroundRepository;
  readonly pushDevices: PushDeviceRepository;
  afterCommit(events: readonly ClientEvent[]): void;
}

/** One transaction per use case; events reach clients only after COMMIT. */
export abstract class UnitOfWork {
  abstract run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}
