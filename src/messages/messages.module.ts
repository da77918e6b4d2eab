import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { MessageQueries } from './application/message-queries.js';
import { MessageReadsService } from './application/message-reads.service.js';
import { MessageRenderer } from './application/message-renderer.js';
import { MessageSendService } from './application/message-send.service.js';
import { MessageViews } from './http/message-views.js';
import { MessagesController } from './http/messages.controller.js';
import { TypeOrmMessageQueries } from './persistence/typeorm-message.queries.js';
import { MarkdownItRenderer } from './rendering/markdown-it-renderer.js';

@Module({
  imports: [UsersModule],
  controllers: [MessagesController],
  providers: [
    MessageSendService,
    MessageReadsService,
    MessageViews,
    { provide: MessageQueries, useClass: TypeOrmMessageQueries },
    { provide: MessageRenderer, useValue: new MarkdownItRenderer() },
  ],
})
export class MessagesModule {}
