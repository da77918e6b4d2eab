import { Module } from '@nestjs/common';
import { MessageQueries } from './application/message-queries.js';
import { MessageReadsService } from './application/message-reads.service.js';
import { HtmlDiffer, MessageRenderer } from './application/message-renderer.js';
import { MessageReadingService } from './application/message-reading.service.js';
import { TopicDeletionService } from './application/topic-deletion.service.js';
import { UserTopicsService } from './application/user-topics.service.js';
import { MessageReadingController } from './http/message-reading.controller.js';
import { LxmlStyleHtmlDiffer } from './rendering/html-diff.js';
import { MessageSender, MessageSendService } from './application/message-send.service.js';
import { MessageViews } from './http/message-views.js';
import { MessageActionsController } from './http/message-actions.controller.js';
import { MessagesController } from './http/messages.controller.js';
import { MessageReactionsController } from './http/message-reactions.controller.js';
import { MessageReportController } from './http/message-report.controller.js';
import { MessageReportService } from './application/message-report.service.js';
import { MessageReactionsService } from './application/message-reactions.service.js';
import { MessageEditService } from './application/message-edit.service.js';
import { MessageFlagsService } from './application/message-flags.service.js';
import { UploadsService } from './application/uploads.service.js';
import { MentionResolver } from './application/mention-resolver.js';
import { NotificationBot } from './application/notification-bot.js';
import { FileStorage } from './application/message.ports.js';
import { LocalFileStorage } from './persistence/local-file-storage.js';
import { ServerConfig } from '../shared/config/server-config.js';
import { TypeOrmMessageQueries } from './persistence/typeorm-message.queries.js';
import { NotificationBotChannelNotifications } from './application/channel-notifications.js';
import { SignupAnnouncements } from './application/signup-announcements.js';
import { MutedSenderMessagesRead } from './application/muted-sender-messages.js';
import { MarkdownItRenderer } from './rendering/markdown-it-renderer.js';
import { RenderTargetsResolver } from './application/render-targets.resolver.js';
import { SubmessagesService } from './application/submessages.service.js';
import { SubmessagesController } from './http/submessages.controller.js';
import { ImageThumbnailer, ThumbnailQueue, UploadAccessTokens } from './application/thumbnail.ports.js';
import { ThumbnailRunner } from './application/thumbnail.runner.js';
import { ThumbnailWorker } from './application/thumbnail.worker.js';
import { UserUploadsController } from './http/user-uploads.controller.js';
import { SharpImageThumbnailer } from './infrastructure/sharp-image-thumbnailer.js';
import { HmacUploadAccessTokens } from './persistence/hmac-upload-access-tokens.js';
import { TypeOrmThumbnailQueue } from './persistence/typeorm-image-attachment.repository.js';

@Module({
  // MessageReadingController first: its fixed `messages/…` paths must be matched before `messages/:message_id`.
  controllers: [MessageReadingController, MessagesController, MessageActionsController, MessageReactionsController, MessageReportController, SubmessagesController, UserUploadsController],
  providers: [
    MessageSendService,
    MessageSender,
    MessageEditService,
    MentionResolver,
    NotificationBot,
    NotificationBotChannelNotifications,
    SignupAnnouncements,
    MutedSenderMessagesRead,
    MessageFlagsService,
    MessageReactionsService,
    SubmessagesService,
    MessageReportService,
    UploadsService,
    { provide: FileStorage, inject: [ServerConfig], useFactory: (c: ServerConfig) => new LocalFileStorage(c.uploadsDir) },
    ThumbnailRunner,
    ThumbnailWorker,
    { provide: ThumbnailQueue, useClass: TypeOrmThumbnailQueue },
    { provide: ImageThumbnailer, useFactory: () => new SharpImageThumbnailer() },
    { provide: UploadAccessTokens, useClass: HmacUploadAccessTokens },
    MessageReadsService,
    MessageReadingService,
    UserTopicsService,
    TopicDeletionService,
    { provide: HtmlDiffer, useValue: new LxmlStyleHtmlDiffer() },
    MessageViews,
    { provide: MessageQueries, useClass: TypeOrmMessageQueries },
    { provide: MessageRenderer, useValue: new MarkdownItRenderer() },
    RenderTargetsResolver,
  ],
  exports: [NotificationBot, NotificationBotChannelNotifications, SignupAnnouncements, MutedSenderMessagesRead, MessageReadsService, MessageRenderer, MessageSender, RenderTargetsResolver],
})
export class MessagesModule {}
