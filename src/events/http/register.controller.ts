import { notLoggedIn, spectatorsAllowed } from '@app/domain/messages';
import { badRequest } from '@app/domain/shared';
import { type Actor, isGuest } from '@app/domain/users';
import { Controller, Delete, Get, Headers, Req } from '@nestjs/common';
import type { Request } from 'express';
import { RealmQueries, RealmResolver } from '../../realm/index.js';
import { CurrentActor, SpectatorAllowed } from '../../shared/auth/decorators.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { QueueOpener } from '../application/queue-opener.js';
import { EventQueues } from '../application/event-queues.js';
import { PresenceSection } from '../application/presence-section.js';
import { RegisterSections } from '../application/register-sections.js';
import { RegisterService } from '../application/register.service.js';
import { DeleteQueueDto, EventsDto, RegisterDto } from './register.dto.js';

@Controller('api/v1')
export class RegisterController {
  constructor(
    private readonly register: RegisterService,
    private readonly queues: EventQueues,
    private readonly opener: QueueOpener,
    private readonly sections: RegisterSections,
    private readonly presence: PresenceSection,
    private readonly realms: RealmQueries,
    private readonly realmResolver: RealmResolver,
    private readonly config: ServerConfig,
  ) {}

  /**
   * POST /register (spec 30 §2.3): the queue is created first, with the database's snapshot,
   * then the state is read: events of the transactions that snapshot saw committed are in the
   * state and never reach the queue; later ones do. `last_event_id` is therefore -1.
   */
  @ApiPost('register')
  @SpectatorAllowed()
  async registerClient(@CurrentActor() actor: Actor | undefined, @Headers('host') host: string | undefined, @ZulipParams() p: RegisterDto) {
    if (actor === undefined) return this.registerSpectator(host, p);
    if (p.all_public_streams === true && isGuest(actor.role)) throw badRequest('User not authorized for this query');
    const caps = p.client_capabilities;
    const queue = await this.opener.open(actor, {
      eventTypes: p.event_types,
      narrow: p.narrow,
      applyMarkdown: p.apply_markdown,
      clientGravatar: p.client_gravatar,
      allPublicStreams: p.all_public_streams ?? false,
      slimPresence: p.slim_presence,
      capabilities: {
        bulkMessageDeletion: caps.bulk_message_deletion === true,
        linkifierUrlTemplate: caps.linkifier_url_template === true,
        emptyTopicName: caps.empty_topic_name === true,
        archivedChannels: caps.archived_channels === true,
        streamTypingNotifications: caps.stream_typing_notifications === true,
        simplifiedPresenceEvents: caps.simplified_presence_events === true,
        userSettingsObject: caps.user_settings_object === true,
        includeDeactivatedGroups: caps.include_deactivated_groups === true,
      },
      lifespanSecs: p.queue_lifespan_secs,
    });
    const selector = p.fetch_event_types ?? p.event_types;
    const want = (section: string) => selector === null || selector.includes(section);
    // After the queue: the state includes everything the queue's snapshot leaves out.
    const read = await this.sections.read(actor, want);
    const state = await this.register.initialState(
      actor,
      want,
      p.client_gravatar,
      {
        linkifierUrlTemplate: caps.linkifier_url_template === true,
        userSettingsObject: caps.user_settings_object === true,
        includeDeactivatedGroups: caps.include_deactivated_groups === true,
      },
      read,
    );
    await this.sections.fill(actor, want, selector !== null, p.include_subscribers !== false, state, caps.empty_topic_name === true, read);
    await this.presence.fill(
      actor,
      want,
      { slimPresence: p.slim_presence, simplifiedPresenceEvents: caps.simplified_presence_events === true, historyLimitDays: p.presence_history_limit_days ?? null },
      state,
      read,
    );
    return { queue_id: queue.id, last_event_id: -1, ...state, idle_queue_timeout_secs: queue.timeoutSecs };
  }

  /**
   * A spectator's register (under /json without a session, as Zulip's events_register_backend for
   * an anonymous web client): only where the organization allows spectators, with client_gravatar
   * and include_subscribers off; no queue (`queue_id` null), the organization's settings and its
   * web-public channels.
   */
  private async registerSpectator(host: string | undefined, p: RegisterDto) {
    const realm = await this.realms.getForVisitor(await this.realmResolver.resolve(host));
    if (!spectatorsAllowed(realm, this.config.webPublicStreamsEnabled)) throw notLoggedIn();
    if (p.client_gravatar) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (p.include_subscribers !== false) throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
    const selector = p.fetch_event_types ?? p.event_types;
    const want = (section: string) => selector === null || selector.includes(section);
    const state = await this.register.spectatorState(realm, want);
    await this.sections.fillForSpectator(realm.id, want, state);
    return { queue_id: null, last_event_id: -1, ...state };
  }

  /** GET /events: long-polls the queue (spec 30 §3). */
  @Get('events')
  async events(@CurrentActor() actor: Actor, @ZulipParams() p: EventsDto, @Req() req: Request) {
    if (p.queue_id === undefined) {
      if (!p.dont_block) throw badRequest("Missing 'queue_id' argument");
      // Zulip's shortcut: a queue with default options, created by the poll itself (spec 30 §3.2).
      const queue = await this.opener.open(actor, {
        eventTypes: null,
        narrow: [],
        applyMarkdown: false,
        clientGravatar: false,
        allPublicStreams: false,
        slimPresence: false,
        capabilities: {
          bulkMessageDeletion: false,
          linkifierUrlTemplate: false,
          emptyTopicName: false,
          archivedChannels: false,
          streamTypingNotifications: false,
          simplifiedPresenceEvents: false,
        },
        lifespanSecs: 0,
      });
      return { events: [], queue_id: queue.id };
    }
    if (p.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
    const cancelled = new Promise<void>((resolve) => req.on('close', () => resolve()));
    const events = await this.queues.poll(p.queue_id, actor.userId, p.last_event_id, p.dont_block, cancelled);
    return { events, queue_id: p.queue_id };
  }

  @Delete('events')
  async deleteQueue(@CurrentActor() actor: Actor, @ZulipParams() p: DeleteQueueDto) {
    await this.queues.delete(p.queue_id, actor.userId);
    return {};
  }
}
