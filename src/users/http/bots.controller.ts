import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { BotsService } from '../application/bots.service.js';
import { botAvatarUrl } from '../application/user.views.js';
import { UpdateBotDto } from './bots.dto.js';

/** Zulip's bot management (get_bots_backend, patch_bot_backend, deactivate_bot_backend, the bot API key routes). */
@Controller('api/v1')
export class BotsController {
  constructor(private readonly bots: BotsService) {}

  @Get('bots')
  @Require('member')
  async list(@CurrentActor() actor: Actor) {
    const bots = await this.bots.listBots(actor);
    return {
      bots: bots.map((b) => ({
        username: b.email,
        full_name: b.fullName,
        api_key: b.apiKey,
        avatar_url: botAvatarUrl(b),
        default_sending_stream: b.defaultSendingStream,
        default_events_register_stream: b.defaultEventsRegisterStream,
        default_all_public_streams: b.defaultAllPublicStreams,
      })),
    };
  }

  @Patch('bots/:bot_id')
  @Require('member')
  async update(@CurrentActor() actor: Actor, @Param('bot_id', PathIntPipe) botId: number, @ZulipParams() p: UpdateBotDto) {
    const b = await this.bots.updateBot(actor, botId, {
      fullName: p.full_name,
      role: p.role,
      botOwnerId: p.bot_owner_id,
      defaultSendingStream: p.default_sending_stream,
      defaultEventsRegisterStream: p.default_events_register_stream,
      defaultAllPublicStreams: p.default_all_public_streams,
    });
    return {
      full_name: b.fullName,
      avatar_url: botAvatarUrl(b),
      // Outgoing-webhook services are not modelled: Zulip echoes its defaults when none are sent.
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: b.defaultSendingStream,
      default_events_register_stream: b.defaultEventsRegisterStream,
      default_all_public_streams: b.defaultAllPublicStreams,
      ...(b.ownerEmail === null ? {} : { bot_owner: b.ownerEmail }),
    };
  }

  @Delete('bots/:bot_id')
  async deactivate(@CurrentActor() actor: Actor, @Param('bot_id', PathIntPipe) botId: number) {
    await this.bots.deactivateBot(actor, botId);
    return {};
  }

  @Get('bots/:bot_id/api_key')
  @Require('member')
  async apiKey(@CurrentActor() actor: Actor, @Param('bot_id', PathIntPipe) botId: number) {
    return { api_key: await this.bots.getBotApiKey(actor, botId) };
  }

  @ApiPost('bots/:bot_id/api_key/regenerate')
  @Require('member')
  async regenerate(@CurrentActor() actor: Actor, @Param('bot_id', PathIntPipe) botId: number) {
    return { api_key: await this.bots.regenerateBotApiKey(actor, botId) };
  }
}
