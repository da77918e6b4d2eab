import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, VISIBILITY_POLICIES } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Controller, Get, Param, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { bool, int, JsonParam, list, parseParams, PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import type { NarrowTerm } from '../application/message-queries.js';
import { MessageReadingService } from '../application/message-reading.service.js';
import { TopicDeletionService } from '../application/topic-deletion.service.js';
import { UserTopicsService } from '../application/user-topics.service.js';
import { narrowDecoder } from './messages.dto.js';

class ChannelTopicsDto {
  @JsonParam(bool(), { default: false }) allow_empty_topic_name: boolean;
}
class MatchesNarrowDto {
  @JsonParam(list(int())) msg_ids: number[];
  @JsonParam(narrowDecoder) narrow: NarrowTerm[];
}
class RenderDto {
  @PlainParam(str({ maxLength: MAX_MESSAGE_LENGTH })) content: string;
}
class UserTopicDto {
  @JsonParam(int()) stream_id: number;
  @PlainParam(str({ maxLength: MAX_TOPIC_LENGTH })) topic: string;
  @JsonParam(int({ oneOf: VISIBILITY_POLICIES })) visibility_policy: number;
}
class DeleteTopicDto {
  @PlainParam(str()) topic_name: string;
}

/**
 * Reading and read state beyond GET /messages: topics of a channel, read receipts, narrow
 * matching, preview rendering, topic visibility policies and topic deletion. Registered before
 * the `messages/{message_id}` routes so that `matches_narrow` and `render` are routes of their own.
 */
@Controller('api/v1')
export class MessageReadingController {
  constructor(
    private readonly reading: MessageReadingService,
    private readonly userTopics: UserTopicsService,
    private readonly deletion: TopicDeletionService,
  ) {}

  @Get('users/me/:stream_id/topics')
  async channelTopics(@CurrentActor() actor: Actor, @Param('stream_id', PathIntPipe) channelId: number, @ZulipParams() p: ChannelTopicsDto) {
    return { topics: await this.reading.channelTopics(actor, channelId, p.allow_empty_topic_name) };
  }

  @Get('messages/matches_narrow')
  async matchesNarrow(@CurrentActor() actor: Actor, @ZulipParams() p: MatchesNarrowDto) {
    return { messages: await this.reading.matchesNarrow(actor, p.msg_ids, p.narrow) };
  }

  @ApiPost('messages/render')
  async render(@CurrentActor() actor: Actor, @ZulipParams() p: RenderDto) {
    return { rendered: await this.reading.render(actor, p.content) };
  }

  @Get('messages/:message_id/read_receipts')
  async readReceipts(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) id: number) {
    return { user_ids: await this.reading.readReceipts(actor, id) };
  }

  @ApiPost('user_topics')
  async updateUserTopic(@CurrentActor() actor: Actor, @ZulipParams() p: UserTopicDto) {
    await this.userTopics.updateUserTopic(actor, p.stream_id, p.topic, p.visibility_policy);
    return {};
  }

  /** `topic_name` is read after the permission check, as Zulip's require_realm_admin runs first. */
  @ApiPost('streams/:stream_id/delete_topic')
  async deleteTopic(@CurrentActor() actor: Actor, @Param('stream_id', PathIntPipe) channelId: number, @Req() req: Request) {
    return this.deletion.deleteTopic(actor, channelId, () => parseParams(req, DeleteTopicDto).topic_name);
  }
}
