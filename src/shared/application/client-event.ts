/**
 * An event for clients' queues: the payload, the users whose queues receive it, and what
 * differs per recipient. Written to the event journal inside the transaction that caused it.
 */
export interface ClientEvent {
  readonly realmId: number;
  readonly event: Record<string, unknown> & { type: string };
  readonly userIds: readonly number[];
  /** Fields merged into one recipient's copy, keyed by user id (e.g. message `flags`). */
  readonly perUser?: Readonly<Record<string, Record<string, unknown>>>;
  /** A message in a public channel: also for the organization's all_public_streams queues. */
  readonly publicChannel?: boolean;
  /** Local echo: the sender's queue gets `local_message_id`. */
  readonly localEcho?: { readonly queueId: string; readonly localId: string };
  /** Only for queues whose client did (true) or did not (false) declare this capability. */
  readonly capability?: { readonly name: 'archived_channels'; readonly has: boolean };
}
