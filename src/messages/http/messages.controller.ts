import { clientName, listedMessages, notLoggedIn, parseFetchWindow, searchFields, searchWords, spectatorsAllowed } from '@app/domain/messages';
import { badRequest, DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Controller, Get, Headers, Param } from '@nestjs/common';
import { RealmQueries, RealmResolver } from '../../realm/index.js';
import { CurrentActor, SpectatorAllowed } from '../../shared/auth/decorators.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { type FetchRequest, MessageReadsService } from '../application/message-reads.service.js';
import { MessageSendService } from '../application/message-send.service.js';
import type { FetchedMessage, NarrowTerm } from '../application/message-queries.js';
import { jsonInput } from './json-input.js';
import { MessageViews } from './message-views.js';
import { GetMessageDto, GetMessagesDto, MessagesSummaryDto, SendMessageDto } from './messages.dto.js';

/**
 * With a search term in the narrow, Zulip's messages carry their search fields: the rendering
 * and the HTML-escaped topic with the searched words highlighted.
 */
function withSearchFields(presented: Record<string, unknown>[], fetched: FetchedMessage[], narrow: NarrowTerm[]): Record<string, unknown>[] {
  const search = narrow.filter((t) => t.operator === 'search' && typeof t.operand === 'string');
  if (search.length === 0) return presented;
  const words = searchWords(search.map((t) => ({ text: t.operand as string, negated: t.negated })));
  return presented.map((m, i) => ({ ...m, ...searchFields(fetched[i].message.renderedContent, fetched[i].message.topic, words) }));
}

@Controller('api/v1')
export class MessagesController {
  constructor(
    private readonly send: MessageSendService,
    private readonly reads: MessageReadsService,
    private readonly views: MessageViews,
    private readonly realms: RealmQueries,
    private readonly realmResolver: RealmResolver,
    private readonly config: ServerConfig,
  ) {}

  @ApiPost('messages')
  async sendMessage(@CurrentActor() actor: Actor, @ZulipParams() p: SendMessageDto, @Headers('user-agent') userAgent?: string) {
    if ((p.queue_id === undefined) !== (p.local_id === undefined)) {
      const missing = p.queue_id === undefined ? 'queue_id' : 'local_id';
      throw new DomainError(`Missing '${missing}' argument`, 'REQUEST_VARIABLE_MISSING', 'invalid', { var_name: missing });
    }
    const r = await this.send.sendMessage(actor, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic,
      readBySender: p.read_by_sender,
      client: clientName(p.client, userAgent),
      queueId: p.queue_id,
      localId: p.local_id,
      ...(p.widget_content !== undefined ? { widgetContent: jsonInput(p.widget_content) } : {}),
    });
    return { id: r.id, ...(r.automaticNewVisibilityPolicy !== undefined ? { automatic_new_visibility_policy: r.automaticNewVisibilityPolicy } : {}) };
  }

  /** Also without an account under /json: a spectator reads the web-public channels (see MessageReadsService.fetchAsSpectator). */
  @Get('messages')
  @SpectatorAllowed()
  async getMessages(@CurrentActor() actor: Actor | undefined, @Headers('host') host: string | undefined, @ZulipParams() p: GetMessagesDto) {
    if (actor !== undefined) return this.fetchMessages(actor, p, (req) => this.reads.fetch(actor, req));
    const realmId = await this.realmResolver.resolve(host);
    const allowed = spectatorsAllowed(await this.realms.getForVisitor(realmId), this.config.webPublicStreamsEnabled);
    // Spectators' messages carry their avatar URLs (Zulip forces client_gravatar off for them).
    return this.fetchMessages({ realmId }, { ...p, client_gravatar: false }, (req) => this.reads.fetchAsSpectator(realmId, allowed, req));
  }

  private async fetchMessages(
    reader: { realmId: number; settingsVersion?: number },
    p: GetMessagesDto,
    fetch: (req: FetchRequest) => ReturnType<MessageReadsService['fetch']>,
  ) {
    const view = { applyMarkdown: p.apply_markdown, clientGravatar: p.client_gravatar, allowEmptyTopicName: p.allow_empty_topic_name };
    const window = parseFetchWindow({
      anchor: p.anchor,
      useFirstUnreadAnchor: p.use_first_unread_anchor,
      numBefore: p.num_before,
      numAfter: p.num_after,
      includeAnchor: p.include_anchor,
      messageIds: p.message_ids,
    });
    const r = await fetch({ ...window, narrow: p.narrow });
    const messages = withSearchFields(await this.views.present(reader, r.messages, view), r.messages, p.narrow);
    if (r.byIds) return { messages, found_anchor: false, found_oldest: false, found_newest: false, history_limited: false };
    return { messages, anchor: r.anchor, found_anchor: r.foundAnchor, found_oldest: r.foundOldest, found_newest: r.foundNewest, history_limited: false };
  }

  /**
   * Zulip's AI summary of a conversation: this server runs no language model (Zulip's
   * TOPIC_SUMMARIZATION_MODEL unset), so it answers as Zulip does then, after reading the narrow.
   */
  @Get('messages/summary')
  summary(@ZulipParams() _p: MessagesSummaryDto): never {
    throw badRequest('AI features are not enabled on this server.');
  }

  /** Also for a spectator under /json: a message of a web-public channel (Zulip's access_web_public_message). */
  @Get('messages/:message_id')
  @SpectatorAllowed()
  async getMessage(
    @CurrentActor() actor: Actor | undefined,
    @Headers('host') host: string | undefined,
    @Param('message_id', PathIntPipe) id: number,
    @ZulipParams() p: GetMessageDto,
  ) {
    const reader = actor ?? { realmId: await this.realmResolver.resolve(host) };
    let fetched: FetchedMessage;
    if (actor !== undefined) fetched = await this.reads.message(actor, id);
    else {
      const allowed = spectatorsAllowed(await this.realms.getForVisitor(reader.realmId), this.config.webPublicStreamsEnabled);
      const narrow = [{ operator: 'channels', operand: 'web-public', negated: false }];
      const r = await this.reads.fetchAsSpectator(reader.realmId, allowed, { ...listedMessages([id]), narrow });
      if (!r.byIds || r.messages.length === 0) throw notLoggedIn();
      fetched = r.messages[0];
    }
    // Zulip's json_fetch_raw_message always presents with client_gravatar.
    const [message] = await this.views.present(reader, [fetched], {
      applyMarkdown: p.apply_markdown,
      clientGravatar: true,
      allowEmptyTopicName: p.allow_empty_topic_name,
    });
    return { raw_content: fetched.message.content, message };
  }
}
