import { DomainError } from '@app/domain/shared';
import { Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RealmResolver } from '../../realm/index.js';
import { Public } from '../../shared/auth/decorators.js';
import { clientAddress } from '../../shared/auth/guards.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { escapeHtmlText as escape, htmlError as error, sendHtmlPage } from '../../shared/http/html-page.js';
import { PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { type SignupLinkKind, SignupService } from '../application/signup.service.js';

export class SignupDto {
  /** Only a reusable link asks for it; an email invitation's address is the invited one. */
  @PlainParam(str(), { optional: true }) email?: string;
  @PlainParam(str(), { optional: true }) full_name?: string;
  @PlainParam(str(), { optional: true }) password?: string;
}

const TITLE = 'Create your account';
const linkPath = (kind: SignupLinkKind, key: string) => (kind === 'invitation' ? `/accounts/do_confirm/${key}` : `/join/${key}/`);

function signupForm(kind: SignupLinkKind, key: string, invitedEmail: string | null, typed: { email?: string; fullName?: string } = {}): string {
  const email =
    invitedEmail !== null
      ? `<p>Email: <strong class="email">${escape(invitedEmail)}</strong></p>`
      : `<p><label>Email <input type="email" name="email" value="${escape(typed.email ?? '')}" autocomplete="email" required></label></p>`;
  return (
    `<form method="post" action="${escape(linkPath(kind, key))}">${email}` +
    `<p><label>Full name <input type="text" name="full_name" value="${escape(typed.fullName ?? '')}" autocomplete="name" required autofocus></label></p>` +
    '<p><label>Password <input type="password" name="password" autocomplete="new-password" required></label></p>' +
    '<button type="submit">Sign up</button></form>'
  );
}

/** Zulip's confirmation/link_expired page, for every link that does not (or no longer) work. */
const LINK_INVALID = (msg: string) => error(msg) + '<p>Ask the person who invited you, or an administrator of the organization, for a new invitation.</p>';

/**
 * Joining an organization from an invitation (not part of the JSON API): the emailed
 * /accounts/do_confirm/<key> link and the reusable /join/<key>/ link show a sign-up form; its
 * POST creates the account. A dead link answers 404, bad input the form again (400), too many
 * requests a 429 page. The Host names the organization: another organization's key is unknown here.
 */
@Controller()
@Public()
export class SignupController {
  constructor(
    private readonly signups: SignupService,
    private readonly realms: RealmResolver,
  ) {}

  @Get('accounts/do_confirm/:key')
  @RawResponse()
  async showInvitation(@Param('key') key: string, @Headers('host') host: string | undefined, @Res() res: Response): Promise<void> {
    await this.show('invitation', key, host, res);
  }

  @Post('accounts/do_confirm/:key')
  @HttpCode(200)
  @RawResponse()
  async acceptInvitation(@Param('key') key: string, @ZulipParams() p: SignupDto, @Headers('host') host: string | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.accept('invitation', key, p, host, req, res);
  }

  @Get('join/:key')
  @RawResponse()
  async showMultiuse(@Param('key') key: string, @Headers('host') host: string | undefined, @Res() res: Response): Promise<void> {
    await this.show('multiuse', key, host, res);
  }

  @Post('join/:key')
  @HttpCode(200)
  @RawResponse()
  async acceptMultiuse(@Param('key') key: string, @ZulipParams() p: SignupDto, @Headers('host') host: string | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.accept('multiuse', key, p, host, req, res);
  }

  private async show(kind: SignupLinkKind, key: string, host: string | undefined, res: Response): Promise<void> {
    const realmId = await this.realms.resolve(host);
    try {
      const { email } = await this.signups.openLink(realmId, kind, key);
      sendHtmlPage(res, 200, TITLE, signupForm(kind, key, email));
    } catch (e) {
      this.refused(e, res);
    }
  }

  private async accept(kind: SignupLinkKind, key: string, p: SignupDto, host: string | undefined, req: Request, res: Response): Promise<void> {
    const realmId = await this.realms.resolve(host);
    const input = { email: p.email ?? '', fullName: p.full_name ?? '', password: p.password ?? '' };
    let done;
    try {
      done = await this.signups.signUp(realmId, kind, key, input, clientAddress(req));
    } catch (e) {
      if (!(e instanceof DomainError) || e.kind !== 'invalid') return this.refused(e, res);
      // The link was checked first: the form again, with the error and what was typed.
      const problem = e.msg;
      return this.signups.openLink(realmId, kind, key).then(
        ({ email }) => sendHtmlPage(res, 400, TITLE, error(problem) + signupForm(kind, key, email, { email: input.email, fullName: input.fullName })),
        (gone: unknown) => this.refused(gone, res),
      );
    }
    const url = escape(done.realmUrl);
    sendHtmlPage(
      res,
      200,
      'Your account is ready',
      `<p>The account <strong class="email">${escape(done.email)}</strong> has been created. Log in at <a href="${url}">${url}</a> with this address and your password.</p>` +
        `<p>Apps and API clients (the <code>zulip</code> Python package, zulip-terminal, bots) use the same address and password (POST ${url}/api/v1/fetch_api_key).</p>`,
    );
  }

  private refused(e: unknown, res: Response): void {
    if (!(e instanceof DomainError)) throw e;
    if (e.kind === 'rate_limited') {
      res.setHeader('Retry-After', String(Math.ceil(Number(e.data?.['retry-after'] ?? 1))));
      return sendHtmlPage(res, 429, 'Rate limit exceeded', error('You have made too many sign-up attempts. Please try again later.'));
    }
    if (e.kind === 'not_found') return sendHtmlPage(res, 404, 'Confirmation link expired or deactivated', LINK_INVALID(e.msg));
    throw e;
  }
}
