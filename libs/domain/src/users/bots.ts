import { badRequest, insufficientPermission } from '../shared/domain-error.js';
import type { Actor } from './actor.js';
import { canAdministerUser, type UserState } from './user.js';

export const noSuchBot = () => badRequest('No such bot');

/**
 * Zulip's access_bot_by_id on an already-loaded target (null = not in the organization): a
 * missing user, another organization's user and a human all read "No such bot"; only the bot's
 * owner and administrators may manage it. Deactivated bots stay reachable.
 */
export function assertCanManageBot(actor: Actor, target: UserState | null): UserState {
  if (target === null || target.realmId !== actor.realmId || !target.isBot || target.isSystemBot) throw noSuchBot();
  if (!canAdministerUser(actor, target)) throw insufficientPermission();
  return target;
}

/** The new owner named by PATCH /bots/{id} bot_owner_id (null = not in the organization). */
export function assertCanOwnBot(owner: Pick<UserState, 'isActive' | 'isBot'> | null): void {
  if (owner === null) throw badRequest('Failed to change owner, no such user');
  if (!owner.isActive) throw badRequest('Failed to change owner, user is deactivated');
  if (owner.isBot) throw badRequest("Failed to change owner, bots can't own other bots");
}
