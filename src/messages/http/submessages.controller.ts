import { MAX_SUBMESSAGE_LENGTH, MAX_SUBMESSAGE_TYPE_LENGTH } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Controller } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { int, JsonParam, PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { SubmessagesService } from '../application/submessages.service.js';
import { jsonInput } from './json-input.js';

/** POST /submessage, in the order of Zulip's typed_endpoint parameters. */
export class SubmessageDto {
  @PlainParam(str({ maxLength: MAX_SUBMESSAGE_LENGTH })) content: string;
  @JsonParam(int()) message_id: number;
  @PlainParam(str({ maxLength: MAX_SUBMESSAGE_TYPE_LENGTH })) msg_type: string;
}

/** Widgets' submessages (Zulip's zerver/views/submessage.py): votes, options, tasks. */
@Controller('api/v1')
export class SubmessagesController {
  constructor(private readonly submessages: SubmessagesService) {}

  @ApiPost('submessage')
  async add(@CurrentActor() actor: Actor, @ZulipParams() p: SubmessageDto) {
    await this.submessages.addSubmessage(actor, { messageId: p.message_id, msgType: p.msg_type, content: p.content, data: jsonInput(p.content) });
    return {};
  }
}
