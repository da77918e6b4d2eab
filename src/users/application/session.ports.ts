import type { BotType, Role } from '@app/domain/users';

/** A browser session as its lookup finds it, with what authenticating by it needs of the user and organization. */
export interface SessionLookup {
  /** The SHA-256 (hex) of the session's token: its id. */
  sessionId: string;
  realmId: number;
  userId: number;
  passwordStamp: string;
  lastSeenAt: Date;
  expiresAt: Date;
  email: string;
  role: Role;
  isBot: boolean;
  botType: BotType | null;
  isActive: boolean;
  passwordHash: string | null;
  realmDeactivated: boolean;
  /** The organization's settings version (realms.settings_version) as this read saw it. */
  settingsVersion: number;
}

export interface NewSession {
  sessionId: string;
  realmId: number;
  userId: number;
  passwordStamp: string;
  now: Date;
  expiresAt: Date;
}

export abstract class SessionQueries {
  /** The session with this id in this organization, or null. */
  abstract find(realmId: number, sessionId: string): Promise<SessionLookup | null>;
}

/** Sessions as a transaction changes them (every statement scoped to the organization). */
export abstract class SessionRepository {
  abstract create(s: NewSession): Promise<void>;
  /** Ends one session (logout, a new login from the same browser). */
  abstract delete(realmId: number, sessionId: string): Promise<void>;
  /**
   * Ends every session of the user but `keep` (null: all of them), and gives `keep` the new
   * password's stamp (the session that changed the password stays valid: Django's
   * update_session_auth_hash).
   */
  abstract endForUser(realmId: number, userId: number, keep?: { sessionId: string; passwordStamp: string } | null): Promise<void>;
  /** Removes the user's sessions that have ended by time (expired, or idle since `idleSince`). */
  abstract purgeEnded(realmId: number, userId: number, now: Date, idleSince: Date): Promise<void>;
  /** Records the session's latest request (written at most once a minute per session). */
  abstract touch(realmId: number, sessionId: string, now: Date): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly sessions: SessionRepository;
  }
}
