import { Global, Module } from '@nestjs/common';
import { DraftsModule } from '../drafts/drafts.module.js';
import { EmojiModule } from '../emoji/emoji.module.js';
import { UsersModule } from '../users/users.module.js';
import { EventQueues } from './application/event-queues.js';
import { RegisterService } from './application/register.service.js';
import { RegisterController } from './http/register.controller.js';
import { PgEventListener } from './persistence/pg-event-listener.js';

@Global()
@Module({
  imports: [UsersModule, EmojiModule, DraftsModule],
  controllers: [RegisterController],
  providers: [RegisterService, EventQueues, PgEventListener],
  exports: [EventQueues, PgEventListener],
})
export class EventsModule {}
