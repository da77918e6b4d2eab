import { Module } from '@nestjs/common';
import { EmojiCatalog } from './application/emoji-catalog.js';
import { EmojiImageStorage, RealmEmojiQueries } from './application/realm-emoji.ports.js';
import { RealmEmojiService } from './application/realm-emoji.service.js';
import { EmojibaseEmojiCatalog } from './catalog/emojibase-emoji-catalog.js';
import { RealmEmojiController } from './http/realm-emoji.controller.js';
import { TypeOrmRealmEmojiQueries } from './persistence/typeorm-realm-emoji.repository.js';
import { emojiImagesDir, LocalEmojiImageStorage } from './persistence/local-emoji-image-storage.js';
import { ServerConfig } from '../shared/config/server-config.js';

/** Custom emoji of the organization, and the Unicode emoji table (from emojibase-data). */
@Module({
  controllers: [RealmEmojiController],
  providers: [
    RealmEmojiService,
    { provide: RealmEmojiQueries, useClass: TypeOrmRealmEmojiQueries },
    { provide: EmojiCatalog, useClass: EmojibaseEmojiCatalog },
    {
      provide: EmojiImageStorage,
      inject: [ServerConfig],
      useFactory: (c: ServerConfig) => new LocalEmojiImageStorage(emojiImagesDir(c.uploadsDir)),
    },
  ],
  exports: [RealmEmojiService, RealmEmojiQueries, EmojiCatalog],
})
export class EmojiModule {}
