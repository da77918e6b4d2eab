import { Controller, Headers, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clearSessionCookie, setCsrfCookie, setSessionCookie, tokenCookie } from '../../shared/auth/browser-cookies.js';
import { CsrfProtected, Public } from '../../shared/auth/decorators.js';
import { applyRateLimitHeaders, clientAddress } from '../../shared/auth/guards.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { SESSION_COOKIE } from '../../shared/http/browser-requests.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { SessionsService } from '../application/sessions.service.js';
import { FetchApiKeyDto } from './users.dto.js';

/**
 * The web app's login and logout (browser sessions; not part of the JSON API under /api/v1).
 * Both need the CSRF token (X-CSRFToken = the `csrftoken` cookie). The answers never hold the
 * API key: the session lives in the HttpOnly `sessionid` cookie.
 */
@Controller('accounts')
@Public()
@CsrfProtected()
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly config: ServerConfig,
  ) {}

  /** Email + password → a session (the checks, answers and limits of POST /fetch_api_key); a new CSRF token. */
  @ApiPost('login')
  async login(
    @ZulipParams() p: FetchApiKeyDto,
    @Headers('host') host: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const client = { userAgent: req.get('user-agent') ?? '', ip: clientAddress(req) };
    const previous = tokenCookie(req, SESSION_COOKIE);
    const s = await this.sessions.login(host, { username: p.username, password: p.password }, (d) => applyRateLimitHeaders(res, d), client, previous);
    setSessionCookie(res, s.token, this.config);
    setCsrfCookie(res, this.config.secureCookies);
    return { user_id: s.userId, email: s.email };
  }

  /** Ends the browser's session on the server and clears its cookie (a success without one too). */
  @ApiPost('logout')
  async logout(@Headers('host') host: string | undefined, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.sessions.logout(host, tokenCookie(req, SESSION_COOKIE));
    clearSessionCookie(res, this.config);
    return {};
  }
}
