/**
 * An event for clients' queues: the payload, the users whose queues receive it, and what
 * differs per recipient. Written to the event journal inside the transaction that caused it.
 */
export interface ClientEvent {
  readonly realmId: number;
  readonly event: Record<string, unknown> & { type: string };
  readonly userIds: readonly number[];
  /**
   * For every user of the organization (each of its queues), as Zulip's `active_user_ids`:
   * organization-wide settings, users and statuses. `userIds` is then empty. Only active users
   * can open and read queues, so this reaches exactly the active users.
   */
  readonly everyone?: true;
  /** Fields merged into one recipient's copy, keyed by user id (e.g. message `flags`). */
  readonly perUser?: Readonly<Record<string, Record<string, unknown>>>;
  /** A message in a public channel: also for the organization's all_public_streams queues. */
  readonly publicChannel?: boolean;
  /** Local echo: the sender's queue gets `local_message_id`. */
  readonly localEcho?: { readonly queueId: string; readonly localId: string };
  /** Only for queues whose client did (true) or did not (false) declare this capability. */
  readonly capability?: { readonly name: 'archived_channels' | 'user_settings_object' | 'include_deactivated_groups'; readonly has: boolean };
}

/** Organization-wide events: one ClientEvent per payload, for every user of the organization. */
export const toEveryone = (realmId: number, payloads: readonly (Record<string, unknown> & { type: string })[]): ClientEvent[] =>
  payloads.map((event) => ({ realmId, event, userIds: [], everyone: true }));
