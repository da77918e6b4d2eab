import type { Actor } from '@app/domain/users';
import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { requestSession } from '../http/browser-requests.js';

export const PUBLIC = 'svc:public';
/** No authentication (server_settings, fetch_api_key, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC, true);

export const CSRF_PROTECTED = 'svc:csrf-protected';
/**
 * A browser form endpoint outside /json (login, logout): an unsafe method needs the CSRF token,
 * and an anonymous request counts against the per-address limit like an API request.
 */
export const CsrfProtected = (): MethodDecorator & ClassDecorator => SetMetadata(CSRF_PROTECTED, true);

export const SESSION_COOKIE_ACCEPTED = 'svc:session-cookie-accepted';
/** Outside /json, also authenticated by the session cookie alone when there is no Authorization header (uploads). */
export const SessionCookieAccepted = (): MethodDecorator & ClassDecorator => SetMetadata(SESSION_COOKIE_ACCEPTED, true);

export const API_KEY_ONLY = 'svc:api-key-only';
/**
 * The answer holds the caller's own API key: never served to a session-authenticated request
 * (its /json path answers as an unknown route), so the key never reaches page scripts.
 */
export const ApiKeyOnly = (): MethodDecorator & ClassDecorator => SetMetadata(API_KEY_ONLY, true);

export const SPECTATOR_ALLOWED = 'svc:spectator-allowed';
/**
 * Zulip's allow_anonymous_user_web: under /json, a request without a valid session reaches the
 * handler with no caller (a spectator, `CurrentActor` undefined), which answers only what the
 * organization's web-public channels show; under /api/v1 credentials stay required.
 */
export const SpectatorAllowed = (): MethodDecorator & ClassDecorator => SetMetadata(SPECTATOR_ALLOWED, true);

/**
 * Zulip's role/kind decorators, checked after authentication and before any parameter:
 * - human: no bots;
 * - member: no guests, no bots (require_member_or_admin);
 * - no_guest: no guests;
 * - admin / owner: organization administrators / owners;
 * - bot: bots only (bot storage).
 */
export type Requirement = 'human' | 'member' | 'no_guest' | 'admin' | 'owner' | 'bot';
export const REQUIRE = 'svc:require';
export const Require = (...r: Requirement[]): MethodDecorator & ClassDecorator => SetMetadata(REQUIRE, r);

/** The authenticated caller. */
export const CurrentActor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor => ctx.switchToHttp().getRequest().user as Actor,
);

/** The browser session that authenticated the request (its id), or null (HTTP Basic). */
export const CurrentSession = createParamDecorator((_: unknown, ctx: ExecutionContext): string | null => requestSession(ctx.switchToHttp().getRequest()));
