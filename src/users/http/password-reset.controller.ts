import { DomainError } from '@app/domain/shared';
import { Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RealmResolver } from '../../realm/index.js';
import { Public } from '../../shared/auth/decorators.js';
import { clientAddress } from '../../shared/auth/guards.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { escapeHtmlText as escape, htmlError as error, sendHtmlPage } from '../../shared/http/html-page.js';
import { PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { PasswordResetService, type ResetOutcome } from '../application/password-reset.service.js';

export class PasswordResetRequestDto {
  @PlainParam(str()) email: string;
}

export class SetPasswordDto {
  @PlainParam(str()) new_password1: string;
  @PlainParam(str()) new_password2: string;
}


const EMAIL_FORM =
  '<form method="post" action="/accounts/password/reset/"><label>Email <input type="email" name="email" required autofocus></label> ' +
  '<button type="submit">Reset password</button></form>';
const passwordForm = (token: string) =>
  `<form method="post" action="/accounts/password/reset/${escape(token)}/">` +
  '<p><label>New password <input type="password" name="new_password1" autocomplete="new-password" required></label></p>' +
  '<p><label>Confirm password <input type="password" name="new_password2" autocomplete="new-password" required></label></p>' +
  '<button type="submit">Change password</button></form>';

/** Zulip's wording: the reset-link error page, Django's mismatch error, PASSWORD_TOO_WEAK_ERROR. */
const INVALID_LINK = 'The password reset link was invalid, possibly because it has already been used or has expired. Please request a new password reset.';
const FORM_ERRORS: Record<Exclude<ResetOutcome['kind'], 'done' | 'invalid_link'>, string> = {
  mismatch: 'The two password fields didn’t match.',
  too_weak: 'The password is too weak.',
};

/**
 * Zulip's password reset pages (not part of the JSON API): /accounts/password/reset/ asks for
 * an address and always answers the same; the emailed link's page sets a new password. Bad
 * input answers the form again with the error (400), too many requests a 429 page.
 */
@Controller('accounts/password/reset')
@Public()
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly realms: RealmResolver,
  ) {}

  @Get()
  @RawResponse()
  async form(@Headers('host') host: string | undefined, @Res() res: Response): Promise<void> {
    await this.realms.resolve(host);
    this.answer(res, 200, 'Reset your password', EMAIL_FORM);
  }

  @Post()
  @RawResponse()
  async request(@ZulipParams() p: PasswordResetRequestDto, @Headers('host') host: string | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    const realmId = await this.realms.resolve(host);
    try {
      await this.resets.request(realmId, p.email, clientAddress(req));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      if (e.kind === 'rate_limited') {
        res.setHeader('Retry-After', String(Math.ceil(Number(e.data?.['retry-after'] ?? 1))));
        return this.answer(res, 429, 'Rate limit exceeded', error('You have made too many password reset requests. Please try again later.'));
      }
      return this.answer(res, 400, 'Reset your password', error(e.msg) + EMAIL_FORM);
    }
    const sent = `<p>If ${escape(p.email.trim())} has an account in this organization, we have sent it an email with a link to set a new password. Check your inbox (and spam folder).</p>`;
    this.answer(res, 200, 'Check your email', sent);
  }

  @Get(':token')
  @RawResponse()
  async show(@Param('token') token: string, @Res() res: Response): Promise<void> {
    if (!(await this.resets.linkWorks(token))) return this.answer(res, 404, 'Password reset unsuccessful', error(INVALID_LINK));
    this.answer(res, 200, 'Set a new password', passwordForm(token));
  }

  @Post(':token')
  @HttpCode(200)
  @RawResponse()
  async reset(@Param('token') token: string, @ZulipParams() p: SetPasswordDto, @Res() res: Response): Promise<void> {
    const outcome = await this.resets.reset(token, p.new_password1, p.new_password2);
    if (outcome.kind === 'invalid_link') return this.answer(res, 404, 'Password reset unsuccessful', error(INVALID_LINK));
    if (outcome.kind !== 'done') return this.answer(res, 400, 'Set a new password', error(FORM_ERRORS[outcome.kind]) + passwordForm(token));
    this.answer(res, 200, 'Password reset complete', '<p>Your password has been set. You can now log in with it (the API keys of your account are unchanged).</p>');
  }

  private answer(res: Response, status: number, title: string, body: string): void {
    sendHtmlPage(res, status, title, body);
  }
}
