import { Module } from '@nestjs/common';
import { EventJournalCursor, QueueOpener } from './application/event-journal-cursor.js';
import { EventQueues } from './application/event-queues.js';
import { PresenceSection } from './application/presence-section.js';
import { RegisterQueries, RegisterSections } from './application/register-sections.js';
import { RegisterService } from './application/register.service.js';
import { RegisterController } from './http/register.controller.js';
import { PgEventListener } from './persistence/pg-event-listener.js';
import { TypeOrmRegisterQueries } from './persistence/typeorm-register.queries.js';

@Module({
  controllers: [RegisterController],
  providers: [RegisterService, RegisterSections, PresenceSection, { provide: RegisterQueries, useClass: TypeOrmRegisterQueries }, EventQueues, PgEventListener, QueueOpener, { provide: EventJournalCursor, useExisting: PgEventListener }],
  exports: [EventQueues, PgEventListener],
})
export class EventsModule {}
