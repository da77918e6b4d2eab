import { Module } from '@nestjs/common';
import { PresenceSettingReaction } from './application/presence-setting.reaction.js';
import { PresenceQueries, PresenceUsers, TypingSettings } from './application/presence.ports.js';
import { PresenceService } from './application/presence.service.js';
import { TypingService } from './application/typing.service.js';
import { PresenceController, TypingController } from './http/presence.controller.js';
import { TypeOrmTypingSettings } from './persistence/typeorm-typing-settings.js';
import { TypeOrmPresenceQueries, TypeOrmPresenceUsers } from './persistence/typeorm-presence.repository.js';

/**
 * User presence (who is online, reported by every client each minute) and typing
 * notifications (ephemeral: events only, nothing stored).
 */
@Module({
  controllers: [PresenceController, TypingController],
  providers: [
    PresenceService,
    TypingService,
    PresenceSettingReaction,
    { provide: PresenceQueries, useClass: TypeOrmPresenceQueries },
    { provide: PresenceUsers, useClass: TypeOrmPresenceUsers },
    { provide: TypingSettings, useClass: TypeOrmTypingSettings },
  ],
  exports: [PresenceService, PresenceSettingReaction],
})
export class PresenceModule {}
