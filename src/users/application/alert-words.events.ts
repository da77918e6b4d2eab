import type { ClientEvent } from '../../shared/application/client-event.js';

/** Zulip's notify_alert_words: the user's whole list, to their own queues. */
export const alertWordsEvent = (realmId: number, userId: number, words: readonly string[]): ClientEvent => ({
  realmId,
  event: { type: 'alert_words', alert_words: [...words] },
  userIds: [userId],
});
