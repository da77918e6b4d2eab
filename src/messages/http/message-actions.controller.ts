import { assertAnchorExcludable, parseAnchor } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentActor, SessionCookieAccepted } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { bool, int, JsonParam, PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { AcceptsFiles, type ReceivedFiles, UploadedBody } from '../../shared/http/multipart-body.interceptor.js';
import { ApiPost } from '../../shared/http/routes.js';
import { MessageEditService } from '../application/message-edit.service.js';
import { MessageFlagsService } from '../application/message-flags.service.js';
import { MessageReadingService } from '../application/message-reading.service.js';
import { UploadsService } from '../application/uploads.service.js';
import { presentAttachment } from '../application/attachments.views.js';
import { sendStoredFile } from './stored-file-response.js';
import { EditMessageDto, narrowDecoder, UpdateFlagsDto } from './messages.dto.js';
import type { NarrowTerm } from '../application/message-queries.js';

class ChannelReadDto {
  @JsonParam(int()) stream_id: number;
}
class TopicReadDto {
  @JsonParam(int()) stream_id: number;
  @PlainParam(str()) topic_name: string;
}
class HistoryDto {
  @JsonParam(bool(), { default: false }) allow_empty_topic_name: boolean;
}
class FlagsNarrowDto {
  @PlainParam(str()) anchor: string;
  @JsonParam(bool(), { default: true }) include_anchor: boolean;
  @JsonParam(int({ min: 0 })) num_before: number;
  @JsonParam(int({ min: 0 })) num_after: number;
  @JsonParam(narrowDecoder) narrow: NarrowTerm[];
  @PlainParam(str()) op: string;
  @PlainParam(str()) flag: string;
}

@Controller()
export class MessageActionsController {
  constructor(
    private readonly edits: MessageEditService,
    private readonly flags: MessageFlagsService,
    private readonly reading: MessageReadingService,
    private readonly uploads: UploadsService,
  ) {}

  @Patch('api/v1/messages/:message_id')
  async edit(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) id: number, @ZulipParams() p: EditMessageDto) {
    const detached = await this.edits.editMessage(actor, id, {
      content: p.content,
      topic: p.topic,
      streamId: p.stream_id,
      propagateMode: p.propagate_mode,
      notifyOldThread: p.send_notification_to_old_thread,
      notifyNewThread: p.send_notification_to_new_thread,
      prevContentSha256: p.prev_content_sha256,
    });
    return { detached_uploads: detached.map(presentAttachment) };
  }

  @Delete('api/v1/messages/:message_id')
  async remove(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) id: number) {
    await this.edits.deleteMessage(actor, id);
    return {};
  }

  @Get('api/v1/messages/:message_id/history')
  async history(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) id: number, @ZulipParams() p: HistoryDto) {
    return { message_history: await this.reading.editHistory(actor, id, p.allow_empty_topic_name) };
  }

  @ApiPost('api/v1/messages/flags')
  async updateFlags(@CurrentActor() actor: Actor, @ZulipParams() p: UpdateFlagsDto) {
    const r = await this.flags.updateFlags(actor, p.messages, p.op, p.flag);
    return {
      messages: p.messages,
      ...(p.flag === 'read' && p.op === 'remove' ? { ignored_because_not_subscribed_channels: r.ignoredChannels ?? [] } : {}),
    };
  }

  @ApiPost('api/v1/messages/flags/narrow')
  async updateFlagsForNarrow(@CurrentActor() actor: Actor, @ZulipParams() p: FlagsNarrowDto) {
    assertAnchorExcludable({ numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor });
    const r = await this.flags.updateFlagsForNarrow(actor, {
      anchor: parseAnchor(p.anchor),
      includeAnchor: p.include_anchor,
      numBefore: p.num_before,
      numAfter: p.num_after,
      narrow: p.narrow,
      op: p.op,
      flag: p.flag,
    });
    return {
      processed_count: r.processedCount,
      updated_count: r.updatedCount,
      first_processed_id: r.firstProcessedId,
      last_processed_id: r.lastProcessedId,
      found_oldest: r.foundOldest,
      found_newest: r.foundNewest,
      ...(p.flag === 'read' && p.op === 'remove' ? { ignored_because_not_subscribed_channels: r.ignoredChannels ?? [] } : {}),
    };
  }

  @ApiPost('api/v1/mark_all_as_read')
  async markAllAsRead(@CurrentActor() actor: Actor) {
    return this.flags.markAllAsRead(actor);
  }

  @ApiPost('api/v1/mark_stream_as_read')
  async markStreamAsRead(@CurrentActor() actor: Actor, @ZulipParams() p: ChannelReadDto) {
    await this.flags.markChannelAsRead(actor, p.stream_id);
    return {};
  }

  @ApiPost('api/v1/mark_topic_as_read')
  async markTopicAsRead(@CurrentActor() actor: Actor, @ZulipParams() p: TopicReadDto) {
    await this.flags.markTopicAsRead(actor, p.stream_id, p.topic_name);
    return {};
  }

  @ApiPost('api/v1/user_uploads')
  @AcceptsFiles((config) => ({ maxFiles: 1, maxFileBytes: config.maxFileUploadSizeMib * 1024 * 1024 }))
  async upload(@CurrentActor() actor: Actor, @UploadedBody() body: ReceivedFiles) {
    const files = body.files.map((f) => ({
      originalName: f.originalName,
      tempPath: f.path,
      size: f.size,
      contentType: f.mimeType || 'application/octet-stream',
    }));
    const r = await this.uploads.upload(actor, files, body.overflow);
    return { uri: r.url, url: r.url, filename: r.filename };
  }

  @Get('api/v1/attachments')
  async listAttachments(@CurrentActor() actor: Actor) {
    const r = await this.uploads.listAttachments(actor);
    return { attachments: r.attachments.map(presentAttachment), upload_space_used: r.uploadSpaceUsed };
  }

  @Delete('api/v1/attachments/:attachment_id')
  async deleteAttachment(@CurrentActor() actor: Actor, @Param('attachment_id', PathIntPipe) id: number) {
    await this.uploads.deleteAttachment(actor, id);
    return {};
  }

  /** With HTTP Basic, or in the browser with the session cookie alone (images in messages). */
  @Get('user_uploads/:realm_id/:bucket/:key/:name')
  @SessionCookieAccepted()
  @RawResponse()
  async download(
    @CurrentActor() actor: Actor,
    @Param('realm_id') realmId: string,
    @Param('bucket') bucket: string,
    @Param('key') key: string,
    @Param('name') name: string,
    @Res() res: Response,
  ) {
    const { attachment, file } = await this.uploads.download(actor, `${realmId}/${bucket}/${key}/${name}`);
    await sendStoredFile(res, file, attachment.name, attachment.size);
  }
}
