import { Module } from '@nestjs/common';
import { DraftsModule } from '../drafts/drafts.module.js';
import { EmojiModule } from '../emoji/emoji.module.js';
import { UsersModule } from '../users/users.module.js';
import { RegisterService } from './application/register.service.js';
import { RegisterController } from './http/register.controller.js';

@Module({ imports: [UsersModule, EmojiModule, DraftsModule], controllers: [RegisterController], providers: [RegisterService] })
export class EventsModule {}
