import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_TYPE_KEYS } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import { Controller, Param } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { literal, PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { MessageReportService } from '../application/message-report.service.js';

/** POST /messages/{message_id}/report, parameters in Zulip's declaration order. */
export class ReportMessageDto {
  @PlainParam(str({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH }), { default: '' }) description: string;
  @PlainParam(literal(REPORT_TYPE_KEYS)) report_type: string;
}

/** Reporting a message to the organization's moderators; any user who can read the message. */
@Controller('api/v1/messages/:message_id/report')
export class MessageReportController {
  constructor(private readonly reports: MessageReportService) {}

  @ApiPost()
  async report(@CurrentActor() actor: Actor, @Param('message_id', PathIntPipe) messageId: number, @ZulipParams() p: ReportMessageDto) {
    await this.reports.reportMessage(actor, messageId, p.report_type, p.description);
    return {};
  }
}
