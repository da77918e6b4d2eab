import { Injectable } from '@nestjs/common';
import { RealmQueries } from '../../realm/index.js';
import { type FetchedMessage, MessageQueries } from '../application/message-queries.js';
import { neededIds, presentMessage } from './message.presenter.js';

/** Turns fetched messages into message objects, loading what they show in a few set queries. */
@Injectable()
export class MessageViews {
  constructor(
    private readonly queries: MessageQueries,
    private readonly realms: RealmQueries,
  ) {}

  async present(
    realmId: number,
    fetched: FetchedMessage[],
    o: { applyMarkdown: boolean; clientGravatar: boolean; allowEmptyTopicName: boolean },
  ): Promise<Record<string, unknown>[]> {
    const ids = neededIds(fetched.map((f) => f.message));
    const senders = await this.queries.senders(ids.senders);
    const channelNames = await this.queries.channelNames(ids.channels);
    const participants = await this.queries.directParticipants(ids.directRecipients);
    const reactions = await this.queries.reactions(realmId, fetched.map((f) => f.message.id));
    const realm = await this.realms.get(realmId);
    return fetched.map((f) =>
      presentMessage(f, {
        senders,
        reactions,
        channelNames,
        participants,
        realmStringId: realm.stringId,
        historyPolicy: realm.messageEditHistoryVisibilityPolicy,
        ...o,
      }),
    );
  }
}
