import { clientName, notLoggedIn, searchFields, searchWords, spectatorsAllowed } from '@app/domain/messages';
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

const MAX_MESSAGES_PER_FETCH = 5000;

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

/** As Zulip's parse_anchor_value: `use_first_unread_anchor` wins over any `anchor` (zulip-terminal sends `anchor=0` with it). */
function parseAnchor(raw: string | undefined, useFirstUnread: boolean | undefined): number | 'newest' | 'oldest' | 'first_unread' {
  if (useFirstUnread) return 'first_unread';
  if (raw === undefined) throw badRequest("Missing 'anchor' argument.");
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return raw;
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest('Invalid anchor');
  return Math.max(0, Number(raw.trim()));
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
    if (p.message_ids !== undefined) {
      if (p.anchor !== undefined || p.num_before !== undefined || p.num_after !== undefined || p.use_first_unread_anchor !== undefined) {
        throw badRequest(
          'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
          { parameters: 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor' },
        );
      }
      const r = await fetch({ anchor: null, numBefore: 0, numAfter: 0, includeAnchor: true, narrow: p.narrow, messageIds: p.message_ids });
      if (!r.byIds) throw new Error('unreachable');
      return {
        messages: withSearchFields(await this.views.present(reader, r.messages, view), r.messages, p.narrow),
        found_anchor: false,
        found_oldest: false,
        found_newest: false,
        history_limited: false,
      };
    }
    const anchor = parseAnchor(p.anchor, p.use_first_unread_anchor);
    const numBefore = p.num_before ?? 0;
    const numAfter = p.num_after ?? 0;
    if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    const includeAnchor = p.include_anchor ?? true;
    if (!includeAnchor && numBefore > 0 && numAfter > 0) throw badRequest('The anchor can only be excluded at an end of the range');
    const r = await fetch({ anchor, numBefore, numAfter, includeAnchor, narrow: p.narrow, messageIds: null });
    if (r.byIds) throw new Error('unreachable');
    return {
      messages: withSearchFields(await this.views.present(reader, r.messages, view), r.messages, p.narrow),
      anchor: r.anchor,
      found_anchor: r.foundAnchor,
      found_oldest: r.foundOldest,
      found_newest: r.foundNewest,
      history_limited: false,
    };
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
      const r = await this.reads.fetchAsSpectator(reader.realmId, allowed, { anchor: null, numBefore: 0, numAfter: 0, includeAnchor: true, narrow, messageIds: [id] });
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
