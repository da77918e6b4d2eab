import { Module } from '@nestjs/common';
import { RealmEmojiQueries } from './application/realm-emoji.ports.js';
import { RealmEmojiService } from './application/realm-emoji.service.js';
import { RealmEmojiController } from './http/realm-emoji.controller.js';
import { TypeOrmRealmEmojiQueries } from './persistence/typeorm-realm-emoji.repository.js';

/** Custom emoji of the organization. */
@Module({
  controllers: [RealmEmojiController],
  providers: [RealmEmojiService, { provide: RealmEmojiQueries, useClass: TypeOrmRealmEmojiQueries }],
  exports: [RealmEmojiService, RealmEmojiQueries],
})
export class EmojiModule {}
