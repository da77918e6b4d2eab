import { createHash } from 'node:crypto';
import { idleCutoff, sessionExpiry, sessionIsValid, type SessionLimits } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { RealmResolver } from '../../realm/index.js';
import { BrowserSessions, type SessionCaller } from '../../shared/application/browser-sessions.js';
import { Clock } from '../../shared/application/clock.js';
import type { RateDecision } from '../../shared/application/rate-limiter.js';
import { Secrets } from '../../shared/application/secrets.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { constantTimeEquals } from './authenticator.js';
import { type LoginClient, LoginNotices } from './login-notices.js';
import { PasswordAuthentication } from './password-authentication.js';
import { type SessionLookup, SessionQueries } from './session.ports.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A session's id: the SHA-256 of its cookie's token (the only form the server keeps). */
export const sessionIdOf = (token: string): string => sha256(token);

/**
 * Django's session auth hash: a digest of the user's password hash, kept with the session when it
 * begins. A session whose stamp no longer matches (the password changed since) is not accepted.
 */
export const passwordStamp = (passwordHash: string | null): string => sha256(`svc-session:${passwordHash ?? ''}`);

/** Bytes of a session token (the cookie holds them base64url-encoded). */
const TOKEN_BYTES = 32;
/** A session's latest request is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

export interface StartedSession {
  /** The cookie's token (never stored). */
  token: string;
  userId: number;
  email: string;
}

/**
 * Browser sessions (Zulip's web login): the login form's email + password → a session, checked
 * as every password login is (PasswordAuthentication, with its rate limits) and announced by the
 * new-login email; a session authenticates the web app's /json requests until it expires
 * (SESSION_LIFETIME_SECONDS after login), idles out (SESSION_IDLE_TIMEOUT_SECONDS without a
 * request), is logged out, or is ended by a password change or a deactivation.
 */
@Injectable()
export class SessionsService extends BrowserSessions {
  constructor(
    private readonly passwords: PasswordAuthentication,
    private readonly notices: LoginNotices,
    private readonly queries: SessionQueries,
    private readonly realms: RealmResolver,
    private readonly uow: UnitOfWork,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
  ) {
    super();
  }

  /**
   * POST /accounts/login/: a new session; the browser's previous session (`previousToken`), if
   * any, ends, and the user's sessions that ended by time are cleared away, in the same
   * transaction as the session and its new-login email.
   */
  async login(
    host: string | undefined,
    credentials: { username: string; password: string },
    onRate: (d: RateDecision) => void,
    client: LoginClient,
    previousToken: string | null,
  ): Promise<StartedSession> {
    const realmId = await this.realms.resolve(host);
    const c = await this.passwords.authenticate(realmId, credentials.username, credentials.password, onRate);
    const email = await this.notices.emailFor(realmId, c.userId, client);
    const token = this.secrets.urlToken(TOKEN_BYTES);
    const now = this.clock.now();
    await this.uow.run(async (tx) => {
      if (previousToken !== null) await tx.sessions.delete(realmId, sessionIdOf(previousToken));
      await tx.sessions.purgeEnded(realmId, c.userId, now, idleCutoff(now, this.limits()));
      await tx.sessions.create({
        sessionId: sessionIdOf(token),
        realmId,
        userId: c.userId,
        passwordStamp: passwordStamp(c.passwordHash),
        now,
        expiresAt: sessionExpiry(now, this.limits()),
      });
      if (email !== null) await tx.emails.send(email, now);
    });
    return { token, userId: c.userId, email: c.deliveryEmail };
  }

  /** POST /accounts/logout/: the session ends on the server (nothing to do without one). */
  async logout(host: string | undefined, token: string | null): Promise<void> {
    const realmId = await this.realms.resolve(host);
    if (token === null) return;
    await this.uow.run((tx) => tx.sessions.delete(realmId, sessionIdOf(token)));
  }

  async authenticate(host: string | undefined, token: string): Promise<SessionCaller | null> {
    const realmId = await this.realms.resolve(host).catch(() => null);
    if (realmId === null) return null;
    const sessionId = sessionIdOf(token);
    const s = await this.queries.find(realmId, sessionId);
    const now = this.clock.now();
    if (s === null || !constantTimeEquals(s.sessionId, sessionId) || !this.isValid(s, now)) return null;
    if (now.getTime() - s.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
      await this.uow.run((tx) => tx.sessions.touch(realmId, sessionId, now));
    }
    const actor = { userId: s.userId, realmId: s.realmId, email: s.email, role: s.role, isBot: s.isBot, botType: s.botType, settingsVersion: s.settingsVersion };
    return { actor, sessionId };
  }

  private isValid(s: SessionLookup, now: Date): boolean {
    const facts = {
      expiresAt: s.expiresAt,
      lastSeenAt: s.lastSeenAt,
      userActive: s.isActive,
      realmDeactivated: s.realmDeactivated,
      botType: s.botType,
      passwordUnchanged: constantTimeEquals(s.passwordStamp, passwordStamp(s.passwordHash)),
    };
    return sessionIsValid(facts, this.limits(), now);
  }

  private limits(): SessionLimits {
    return { lifetimeSeconds: this.config.sessionLifetimeSeconds, idleTimeoutSeconds: this.config.sessionIdleTimeoutSeconds };
  }
}
