import { Module } from '@nestjs/common';
import { EventQueues } from './application/event-queues.js';
import { QueueOpener } from './application/queue-opener.js';
import { QueueStore } from './application/queue-store.js';
import { PresenceSection } from './application/presence-section.js';
import { RegisterQueries, RegisterSections } from './application/register-sections.js';
import { RegisterService } from './application/register.service.js';
import { RegisterController } from './http/register.controller.js';
import { PgEventListener } from './persistence/pg-event-listener.js';
import { PgQueueStore } from './persistence/pg-queue-store.js';
import { TypeOrmRegisterQueries } from './persistence/typeorm-register.queries.js';

@Module({
  controllers: [RegisterController],
  providers: [RegisterService, RegisterSections, PresenceSection, { provide: RegisterQueries, useClass: TypeOrmRegisterQueries }, EventQueues, PgEventListener, QueueOpener, { provide: QueueStore, useClass: PgQueueStore }],
  exports: [EventQueues, PgEventListener],
})
export class EventsModule {}
