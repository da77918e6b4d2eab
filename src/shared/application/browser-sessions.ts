import type { Actor } from '@app/domain/users';

/** A request authenticated by a browser session: its caller, and the session's id (the SHA-256 of its token). */
export interface SessionCaller {
  actor: Actor;
  sessionId: string;
}

/**
 * Browser sessions as the auth guard needs them (the users context implements it): the
 * `sessionid` cookie's token, on the organization the request's Host names, → the caller; null
 * when there is no such session or it has ended (expired, idle, logged out, password changed,
 * user or organization deactivated).
 */
export abstract class BrowserSessions {
  abstract authenticate(host: string | undefined, token: string): Promise<SessionCaller | null>;
}
