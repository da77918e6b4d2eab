import type { Actor } from '@app/domain/users';
import { Controller, Get } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { RealmEmojiService } from '../application/realm-emoji.service.js';
import { presentRealmEmojiMap } from '../application/realm-emoji.views.js';

@Controller('api/v1')
export class RealmEmojiController {
  constructor(private readonly emoji: RealmEmojiService) {}

  /** Any user or bot of the organization (the list is public to its members). */
  @Get('realm/emoji')
  async list(@CurrentActor() actor: Actor) {
    return { emoji: presentRealmEmojiMap(await this.emoji.list(actor)) };
  }
}
