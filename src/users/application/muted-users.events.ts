import type { MutedUserEntry } from '@app/domain/users';
import type { ClientEvent } from '../../shared/application/client-event.js';

/** Zulip's `muted_users` event: the user's whole list, to their own queues. */
export const mutedUsersEvent = (realmId: number, userId: number, entries: readonly MutedUserEntry[]): ClientEvent => ({
  realmId,
  event: { type: 'muted_users', muted_users: entries.map((e) => ({ id: e.id, timestamp: e.timestamp })) },
  userIds: [userId],
});
