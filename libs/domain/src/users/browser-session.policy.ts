import { BotType } from './role.js';

/** How long browser sessions last (the server's settings). */
export interface SessionLimits {
  lifetimeSeconds: number;
  idleTimeoutSeconds: number;
}

/** What a session and its user are now, as the lookup found them. */
export interface SessionFacts {
  expiresAt: Date;
  lastSeenAt: Date;
  userActive: boolean;
  realmDeactivated: boolean;
  botType: number | null;
  /** The user's password is the one the session began with (Django's session auth hash matches). */
  passwordUnchanged: boolean;
}

/** When a session begun at `now` expires. */
export const sessionExpiry = (now: Date, limits: SessionLimits): Date => new Date(now.getTime() + limits.lifetimeSeconds * 1000);

/** Sessions last seen before this have idled out. */
export const idleCutoff = (now: Date, limits: SessionLimits): Date => new Date(now.getTime() - limits.idleTimeoutSeconds * 1000);

/**
 * Whether a browser session still authenticates: not expired, not idle, the password unchanged
 * since it began, an active user (never an incoming-webhook bot) of an active organization.
 */
export function sessionIsValid(s: SessionFacts, limits: SessionLimits, now: Date): boolean {
  return (
    s.expiresAt.getTime() > now.getTime() &&
    s.lastSeenAt.getTime() > idleCutoff(now, limits).getTime() &&
    s.userActive &&
    !s.realmDeactivated &&
    s.botType !== BotType.INCOMING_WEBHOOK &&
    s.passwordUnchanged
  );
}
