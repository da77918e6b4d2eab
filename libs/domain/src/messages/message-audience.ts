/**
 * A user who may hear about an action on a message: holds a per-user row for it (received it,
 * or a historical row from starring or reacting) and/or is an active subscriber of its channel.
 */
export interface AudienceCandidate {
  userId: number;
  hasRow: boolean;
  /** An active subscription of an active user. */
  subscribed: boolean;
  isGuest: boolean;
}

/** The channel facts that decide the audience (null for a direct message). */
export interface AudienceChannel {
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
}

/**
 * Who gets the events of an action on a message, such as a reaction (Zulip's
 * event_recipient_ids_for_action_on_messages): for a direct message, its rows; for protected
 * history, subscribers who hold a row; for a private channel with shared history, its
 * subscribers; for a public channel, its subscribers and every non-guest holding a row (users who
 * left, or who starred or reacted without subscribing). Ascending ids.
 */
export function actionAudience(channel: AudienceChannel | null, candidates: readonly AudienceCandidate[]): number[] {
  const chosen = candidates.filter((c) => {
    if (channel === null) return c.hasRow;
    if (!channel.historyPublicToSubscribers) return c.hasRow && c.subscribed;
    if (channel.inviteOnly) return c.subscribed;
    return c.subscribed || (c.hasRow && !c.isGuest);
  });
  return [...new Set(chosen.map((c) => c.userId))].sort((a, b) => a - b);
}
