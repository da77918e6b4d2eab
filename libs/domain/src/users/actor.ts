import type { BotType, Role } from './role.js';

/** The authenticated caller of a request, as the application sees it. */
export interface Actor {
  readonly userId: number;
  readonly realmId: number;
  readonly email: string;
  readonly role: Role;
  readonly isBot: boolean;
  readonly botType: BotType | null;
}
