import { Global, Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module.js';
import { DraftsModule } from '../drafts/drafts.module.js';
import { EmojiModule } from '../emoji/emoji.module.js';
import { UsersModule } from '../users/users.module.js';
import { EventQueues } from './application/event-queues.js';
import { RegisterQueries, RegisterSections } from './application/register-sections.js';
import { RegisterService } from './application/register.service.js';
import { RegisterController } from './http/register.controller.js';
import { PgEventListener } from './persistence/pg-event-listener.js';
import { TypeOrmRegisterQueries } from './persistence/typeorm-register.queries.js';

@Global()
@Module({
  imports: [UsersModule, EmojiModule, DraftsModule, ChannelsModule],
  controllers: [RegisterController],
  providers: [RegisterService, RegisterSections, { provide: RegisterQueries, useClass: TypeOrmRegisterQueries }, EventQueues, PgEventListener],
  exports: [EventQueues, PgEventListener],
})
export class EventsModule {}
