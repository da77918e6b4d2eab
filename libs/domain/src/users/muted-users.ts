import { badRequest, type DomainError } from '../shared/domain-error.js';
import type { Actor } from './actor.js';
import { assertCanAccessUser, type UserState } from './user.js';

/*
 * Muted users (Zulip's zerver/views/muted_users.py and zerver/actions/muted_users.py): a user
 * hides another user's messages from themselves. Bots and deactivated users may be muted; the
 * muted user's messages to the muter are (and, from then on, arrive) read.
 */

export const cannotMuteSelf = (): DomainError => badRequest('Cannot mute self');
export const userAlreadyMuted = (): DomainError => badRequest('User already muted');
export const userNotMuted = (): DomainError => badRequest('User is not muted');

/** Zulip refuses muting oneself before it looks the target up. */
export function assertNotMutingSelf(actor: Actor, mutedUserId: number): void {
  if (actor.userId === mutedUserId) throw cannotMuteSelf();
}

/** The user to mute: anyone of the organization, bots and deactivated users included (unknown → No such user). */
export function assertCanMute(actor: Actor, target: UserState | null): UserState {
  return assertCanAccessUser(actor, target, { allowBots: true, allowDeactivated: true, forAdmin: false });
}

/** Unmuting looks the target up as muting does (oneself is simply never muted). */
export function assertCanUnmute(actor: Actor, target: UserState | null): UserState {
  return assertCanAccessUser(actor, target, { allowBots: true, allowDeactivated: true, forAdmin: false });
}

/** One entry of the `muted_users` list: the muted user and when, in whole seconds (Zulip's datetime_to_timestamp). */
export interface MutedUserEntry {
  id: number;
  timestamp: number;
}

export const mutedUserEntry = (mutedUserId: number, dateMuted: Date): MutedUserEntry => ({
  id: mutedUserId,
  timestamp: Math.floor(dateMuted.getTime() / 1000),
});
