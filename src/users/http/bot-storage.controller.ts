import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Put } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { BotStorageService } from '../application/bot-storage.service.js';
import { StorageKeysDto, UpdateStorageDto } from './bot-storage.dto.js';

/**
 * A bot's key/value storage (Zulip feature level 494: bots only, "Must be a bot user", checked
 * here before the parameters). The answer's `storage` object is built with Object.fromEntries,
 * so keys like `__proto__` stay plain keys.
 */
@Controller('api/v1/bot_storage')
@Require('bot')
export class BotStorageController {
  constructor(private readonly storage: BotStorageService) {}

  @Get()
  async get(@CurrentActor() actor: Actor, @ZulipParams() p: StorageKeysDto) {
    return { storage: Object.fromEntries(await this.storage.getStorage(actor, p.keys)) };
  }

  @Put()
  async update(@CurrentActor() actor: Actor, @ZulipParams() p: UpdateStorageDto) {
    await this.storage.updateStorage(actor, p.storage);
    return {};
  }

  @Delete()
  async remove(@CurrentActor() actor: Actor, @ZulipParams() p: StorageKeysDto) {
    await this.storage.removeStorage(actor, p.keys);
    return {};
  }
}
