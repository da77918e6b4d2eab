import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TypeOrmChannelQueries, TypeOrmChannelRepository } from '../../channels/persistence/typeorm-channel.repository.js';
import { TypeOrmMessageRepository } from '../../messages/persistence/typeorm-message.repository.js';
import { TypeOrmDraftRepository, TypeOrmSavedSnippetRepository } from '../../drafts/persistence/typeorm-draft.repository.js';
import { TypeOrmReminderRepository } from '../../drafts/persistence/typeorm-reminder.repository.js';
import { TypeOrmInvitationRepository } from '../../invitations/persistence/typeorm-invitation.repository.js';
import { TypeOrmRealmEmojiRepository } from '../../emoji/persistence/typeorm-realm-emoji.repository.js';
import { TypeOrmLinkifierRepository, TypeOrmPlaygroundRepository } from '../../realm/persistence/typeorm-realm-resources.repository.js';
import { TypeOrmRealmRepository } from '../../realm/persistence/typeorm-realm.repository.js';
import { TypeOrmUserGroupRepository } from '../../users/persistence/typeorm-user-group.repository.js';
import { TypeOrmUserRepository } from '../../users/persistence/typeorm-user.repository.js';
import { TypeOrmUserStatusRepository } from '../../users/persistence/typeorm-user-status.repository.js';
import { TypeOrmPushDeviceRepository } from '../../push/persistence/typeorm-push.repository.js';
import type { ClientEvent } from '../application/client-event.js';
import { type Tx, UnitOfWork } from '../application/unit-of-work.js';
import { appendEvents } from './event-journal.js';
import { OutboxEmailSender } from './outbox-email-sender.js';
import { DomainError } from '@app/domain/shared';
import { userGroupAlreadyExists } from '@app/domain/users';
import { channelAlreadyExists } from '@app/domain/channels';
import { customEmojiAlreadyExists } from '@app/domain/emoji';
import { domainAlreadyAdded, uniqueTogetherMessage, validationFailure } from '@app/domain/realm';

/**
 * One database transaction per use case. Repositories are built on the transaction's
 * EntityManager, so nothing inside `work` can slip onto the pool; events are handed to the
 * journal inside the transaction, so clients see them exactly when they commit.
 */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(
    private readonly ds: DataSource,
  ) {
    super();
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const pending: ClientEvent[] = [];
    const result = await this.ds
      .transaction(async (em) => {
        const tx: Tx = {
          users: new TypeOrmUserRepository(em),
          groups: new TypeOrmUserGroupRepository(em),
          realms: new TypeOrmRealmRepository(em),
          channels: new TypeOrmChannelRepository(em),
          channelQueries: TypeOrmChannelQueries.within(em),
          messages: new TypeOrmMessageRepository(em),
          drafts: new TypeOrmDraftRepository(em),
          savedSnippets: new TypeOrmSavedSnippetRepository(em),
          reminders: new TypeOrmReminderRepository(em),
          invitations: new TypeOrmInvitationRepository(em),
          emails: new OutboxEmailSender(em),
          userStatus: new TypeOrmUserStatusRepository(em),
          realmEmoji: new TypeOrmRealmEmojiRepository(em),
          linkifiers: new TypeOrmLinkifierRepository(em),
          playgrounds: new TypeOrmPlaygroundRepository(em),
          pushDevices: new TypeOrmPushDeviceRepository(em),
          afterCommit: (events) => pending.push(...events),
        };
        const out = await work(tx);
        if (pending.length > 0) await appendEvents(em, pending);
        return out;
      })
      .catch(translateConstraintViolation);
    return result;
  }
}

const UNIQUE_TOGETHER: Record<string, string> = {
  linkifiers_realm_pattern_key: uniqueTogetherMessage('Realm filter', ['Realm', 'Pattern']),
  code_playgrounds_realm_language_name_key: uniqueTogetherMessage('Realm playground', ['Realm', 'Pygments language', 'Name']),
};

/** A unique violation that a concurrent request won is reported like the rule it protects. */
function translateConstraintViolation(e: unknown): never {
  type PgError = { code?: string; constraint?: string; detail?: string };
  const err = ((e as { driverError?: PgError }).driverError ?? e) as PgError;
  if (err.code === '23505') {
    // detail: Key (realm_id, name)=(1, devs) already exists.
    const value = /=\(\d+, (.*)\) already exists/.exec(err.detail ?? '')?.[1] ?? '';
    if (err.constraint === 'users_realm_delivery_email_key' || err.constraint === 'users_realm_email_key') {
      throw new DomainError(`Email '${value}' already in use`);
    }
    if (err.constraint === 'user_groups_realm_name_key') throw userGroupAlreadyExists(value);
    if (err.constraint === 'channels_realm_name_key') throw channelAlreadyExists(value);
    if (err.constraint === 'realm_emoji_realm_active_name_key') throw customEmojiAlreadyExists();
    if (err.constraint === 'realm_domains_realm_domain_key') throw domainAlreadyAdded(value);
    const clash = UNIQUE_TOGETHER[err.constraint ?? ''];
    if (clash !== undefined) throw validationFailure(clash, { __all__: [clash] });
  }
  throw e;
}
