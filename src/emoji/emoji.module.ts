import { Module } from '@nestjs/common';
import { EmojiCatalog } from './application/emoji-catalog.js';
import { RealmEmojiQueries } from './application/realm-emoji.ports.js';
import { RealmEmojiService } from './application/realm-emoji.service.js';
import { EmojibaseEmojiCatalog } from './catalog/emojibase-emoji-catalog.js';
import { RealmEmojiController } from './http/realm-emoji.controller.js';
import { TypeOrmRealmEmojiQueries } from './persistence/typeorm-realm-emoji.repository.js';

/** Custom emoji of the organization, and the Unicode emoji table (from emojibase-data). */
@Module({
  controllers: [RealmEmojiController],
  providers: [
    RealmEmojiService,
    { provide: RealmEmojiQueries, useClass: TypeOrmRealmEmojiQueries },
    { provide: EmojiCatalog, useClass: EmojibaseEmojiCatalog },
  ],
  exports: [RealmEmojiService, RealmEmojiQueries, EmojiCatalog],
})
export class EmojiModule {}
