import type { BotType, Role } from './role.js';

/** The authenticated caller of a request, as the application sees it. */
export interface Actor {
  readonly userId: number;
  readonly realmId: number;
  readonly email: string;
  readonly role: Role;
  readonly isBot: boolean;
  readonly botType: BotType | null;
  /**
   * The version of the organization's settings when the request authenticated (read by the auth
   * query): cached settings at least this new may serve it. Absent: no cache may be used.
   */
  readonly settingsVersion?: number;
}
