import { Injectable } from '@nestjs/common';
import { RealmQueries } from '../../realm/index.js';
import { OrganizationSettingsCache, type SettingsReader } from '../../shared/application/settings-cache.js';
import { type FetchedMessage, MessageQueries } from '../application/message-queries.js';
import { neededIds, presentMessage } from './message.presenter.js';

/** Turns fetched messages into message objects, loading what they show in a few set queries. */
@Injectable()
export class MessageViews {
  constructor(
    private readonly queries: MessageQueries,
    private readonly realms: RealmQueries,
    private readonly settings: OrganizationSettingsCache,
  ) {}

  /** `reader`: the caller (its organization, and the settings version it has seen). */
  async present(
    reader: SettingsReader,
    fetched: FetchedMessage[],
    o: { applyMarkdown: boolean; clientGravatar: boolean; allowEmptyTopicName: boolean },
  ): Promise<Record<string, unknown>[]> {
    const realmId = reader.realmId;
    const ids = neededIds(fetched.map((f) => f.message));
    const senders = await this.queries.senders(ids.senders);
    const channelNames = await this.queries.channelNames(ids.channels);
    const participants = await this.queries.directParticipants(ids.directRecipients);
    const reactions = await this.queries.reactions(realmId, fetched.map((f) => f.message.id));
    // Only a page with widgets reads submessages (messages.has_submessages).
    const submessages = await this.queries.submessages(realmId, fetched.filter((f) => f.message.hasSubmessages).map((f) => f.message.id));
    // The organization as of the caller's settings version: from the settings cache (as register
    // reads it), no statement per fetch.
    const load = () => this.realms.get(realmId);
    const realm = await (reader.settingsVersion === undefined ? load() : this.settings.at(realmId, reader.settingsVersion).value('realm', load));
    return fetched.map((f) =>
      presentMessage(f, {
        senders,
        reactions,
        submessages,
        channelNames,
        participants,
        realmStringId: realm.stringId,
        historyPolicy: realm.messageEditHistoryVisibilityPolicy,
        ...o,
      }),
    );
  }
}
