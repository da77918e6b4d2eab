import { DomainError } from '@app/domain/shared';
import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { AccountService, type EmailChangeOutcome } from '../application/account.service.js';

export class ConfirmEmailChangeDto {
  @PlainParam(str()) key: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>\n`;

/** Zulip's confirmation error pages (all 404), the deactivation pages, and the success page. */
const ANSWERS: Record<Exclude<EmailChangeOutcome['kind'], 'changed'>, [number, string]> = {
  malformed: [404, 'This confirmation link is malformed.'],
  does_not_exist: [404, 'This confirmation link does not exist.'],
  expired: [404, 'This confirmation link has expired or been deactivated.'],
  realm_deactivated: [400, 'This organization has been deactivated.'],
  user_deactivated: [401, 'Your account has been deactivated.'],
};

/**
 * The link of an email-change confirmation email (not part of the JSON API). The GET answers a
 * page that posts the key, as Zulip's confirm_email_change_get does; the POST makes the change.
 */
@Controller('accounts/confirm_new_email')
@Public()
export class ConfirmEmailController {
  constructor(private readonly accounts: AccountService) {}

  @Get(':key')
  @RawResponse()
  async show(@Param('key') key: string, @Res() res: Response): Promise<void> {
    const kind = await this.accounts.checkEmailChangeKey(key);
    if (kind !== 'valid') return this.answer(res, ...ANSWERS[kind]);
    const form =
      `<form method="post" action="/accounts/confirm_new_email"><input type="hidden" name="key" value="${escape(key)}">` +
      `<button type="submit">Confirm the new email address</button></form><script>document.forms[0].submit()</script>`;
    this.answer(res, 200, 'Confirm your new email address', form);
  }

  @Post()
  @RawResponse()
  async confirm(@ZulipParams() p: ConfirmEmailChangeDto, @Res() res: Response): Promise<void> {
    let outcome: EmailChangeOutcome;
    try {
      outcome = await this.accounts.confirmEmailChange(p.key);
    } catch (e) {
      if (e instanceof DomainError) return this.answer(res, 400, e.msg);
      throw e;
    }
    if (outcome.kind !== 'changed') return this.answer(res, ...ANSWERS[outcome.kind]);
    const text = `This confirms that the email address for your account has been changed from ${outcome.oldEmail} to ${outcome.newEmail}.`;
    this.answer(res, 200, 'Email address changed', `<p>${escape(text)}</p>`);
  }

  private answer(res: Response, status: number, title: string, body = `<p>${escape(title)}</p>`): void {
    res.status(status).type('html').send(page(title, body));
  }
}
