import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { AlertWordsService } from '../application/alert-words.service.js';
import { AddAlertWordsDto, RemoveAlertWordsDto } from './alert-words.dto.js';

/** The caller's alert words; every answer is the whole list. Bots may have them too, as in Zulip. */
@Controller('api/v1/users/me/alert_words')
export class AlertWordsController {
  constructor(private readonly alertWords: AlertWordsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { alert_words: await this.alertWords.listAlertWords(actor) };
  }

  @ApiPost()
  async add(@CurrentActor() actor: Actor, @ZulipParams() p: AddAlertWordsDto) {
    return { alert_words: await this.alertWords.addAlertWords(actor, p.alert_words) };
  }

  @Delete()
  async remove(@CurrentActor() actor: Actor, @ZulipParams() p: RemoveAlertWordsDto) {
    return { alert_words: await this.alertWords.removeAlertWords(actor, p.alert_words) };
  }
}
