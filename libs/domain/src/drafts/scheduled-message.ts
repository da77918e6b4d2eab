import { normaliseContent } from '../messages/content.js';
import { badRequest, DomainError } from '../shared/domain-error.js';
import { deliveryTimeNotInFuture } from './reminder.js';

/**
 * Scheduled messages (Zulip's ScheduledMessage with delivery type SEND_LATER; zerver/views/
 * scheduled_messages.py, zerver/actions/scheduled_messages.py): a message its owner wrote now
 * and the server sends as them later, checked by the sending rules when scheduled, when edited
 * and again when delivered.
 */

export const scheduledMessageDoesNotExist = (): DomainError =>
  new DomainError('Scheduled message does not exist', 'BAD_REQUEST', 'not_found');
export const scheduledMessageAlreadySent = (): DomainError => badRequest('Scheduled message was already sent');

/** The `type` parameter: the modern names and Zulip's legacy ones. */
export const SCHEDULED_MESSAGE_TYPES = ['direct', 'channel', 'stream', 'private'] as const;
export type ScheduledMessageTypeParam = (typeof SCHEDULED_MESSAGE_TYPES)[number];
/** The type as scheduled message objects show it (Zulip still uses the legacy names there). */
export type ScheduledMessageType = 'stream' | 'private';

export const legacyScheduledType = (t: ScheduledMessageTypeParam): ScheduledMessageType =>
  t === 'direct' || t === 'private' ? 'private' : 'stream';

/** `to` as the parameter decodes it: a channel id or a list of user ids. */
export type ScheduledRecipients = number | readonly number[];

/**
 * Zulip's extract_stream_id / extract_direct_message_recipient_ids: one channel id for a
 * channel message, a list of user ids (duplicates dropped, ascending) for a direct one.
 */
export function scheduledRecipients(type: ScheduledMessageType, to: ScheduledRecipients): number[] {
  if (type === 'stream') {
    if (typeof to !== 'number') throw badRequest('Invalid data type for channel ID');
    return [to];
  }
  if (typeof to === 'number') throw badRequest('Invalid data type for recipients');
  return [...new Set(to)].sort((a, b) => a - b);
}

/** What PATCH /scheduled_messages/{id} carries (absent fields stay undefined). */
export interface ScheduledMessageEdit {
  readonly type?: ScheduledMessageTypeParam;
  readonly to?: ScheduledRecipients;
  readonly topic?: string;
  readonly content?: string;
  readonly scheduledDeliveryTimestamp?: number;
}

/**
 * Zulip's update_scheduled_message_backend, before the message is looked up: something must
 * change, a new type needs recipients, and a new channel type a topic. Returns the new type
 * (null when the type does not change).
 */
export function checkScheduledMessageEdit(e: ScheduledMessageEdit): ScheduledMessageType | null {
  const { type, to, topic, content, scheduledDeliveryTimestamp } = e;
  if ([type, to, topic, content, scheduledDeliveryTimestamp].every((v) => v === undefined)) throw badRequest('Nothing to change');
  if (type === undefined) return null;
  if (to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
  const legacy = legacyScheduledType(type);
  if (legacy === 'stream' && topic === undefined) throw badRequest('Topic required when updating scheduled message type to channel.');
  return legacy;
}

/** Without read_by_sender: read for its sender when sent from Zulip's own UIs, unless it is to oneself alone. */
export function scheduledReadBySender(explicit: boolean | undefined, clientReadsBySender: boolean, toSelfOnly: boolean): boolean {
  return explicit ?? (clientReadsBySender && !toSelfOnly);
}

/** How late after its time a scheduled message may still be sent (Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES). */
export const SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES = 10;

/** Why a due message is not sent: too late (the server was down or behind), or null when it may go. */
export function lateDeliveryError(scheduledAt: Date, now: Date): DomainError | null {
  const latest = scheduledAt.getTime() + SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES * 60_000;
  return now.getTime() > latest ? badRequest('Message could not be sent at the scheduled time.') : null;
}

/** The failures Zulip records, without telling the owner, when the organization or the owner is gone. */
export const REALM_DEACTIVATED_FAILURE = 'This organization has been deactivated';
export const OWNER_DEACTIVATED_FAILURE = 'Account is deactivated';

/** Zulip's datetime_to_global_time: a `<time:…>` the clients show in each reader's time zone. */
export const globalTime = (d: Date): string => `<time:${d.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

/** The Notification Bot's message to an owner whose scheduled message failed (send_failed_scheduled_message_notification). */
export function failedScheduledMessageNotice(scheduledAt: Date, failure: string): string {
  return normaliseContent(
    `The message you scheduled for ${globalTime(scheduledAt)} was not sent because of the following error:\n\n` +
      `> ${failure}\n\n[View scheduled messages](#scheduled)\n\n`,
  );
}

/** Where a scheduled message goes: a channel topic, or a direct conversation (its owner included). */
export type ScheduledTarget =
  | { readonly kind: 'channel'; readonly channelId: number; readonly topic: string }
  | { readonly kind: 'direct'; readonly participantIds: readonly number[] };

export interface ScheduledMessageState {
  id: number;
  ownerId: number;
  target: ScheduledTarget;
  content: string;
  renderedContent: string;
  /** The client that scheduled (or last edited) it: the sent message's client. */
  sendingClient: string;
  readBySender: boolean;
  scheduledAt: Date;
  delivered: boolean;
  deliveredMessageId: number | null;
  failed: boolean;
  failureMessage: string | null;
}

/** A scheduled message as its owner sees it (GET /scheduled_messages, events, POST /register). */
export interface ScheduledMessageView {
  readonly id: number;
  readonly type: ScheduledMessageType;
  /** The channel id, or the direct recipients (Zulip's get_recipient_ids). */
  readonly to: number | readonly number[];
  /** Channel messages only. */
  readonly topic?: string;
  readonly content: string;
  readonly renderedContent: string;
  readonly scheduledAt: Date;
  readonly failed: boolean;
}

/**
 * The direct recipients a client sees: the other participants, ascending, or the owner alone for
 * a message to oneself.
 */
export function shownDirectRecipients(ownerId: number, participantIds: readonly number[]): number[] {
  const others = [...participantIds].filter((id) => id !== ownerId).sort((a, b) => a - b);
  return others.length === 0 ? [ownerId] : others;
}

/** A checked message (content, rendering, target) as the sending rules left it. */
export interface CheckedScheduledContent {
  readonly content: string;
  readonly renderedContent: string;
  readonly target: ScheduledTarget;
}

/** A message waiting to be sent as its owner; only the owner ever sees it. */
export class ScheduledMessage {
  private constructor(private state: ScheduledMessageState) {}

  static create(
    ownerId: number,
    checked: CheckedScheduledContent,
    o: { sendingClient: string; readBySender: boolean; scheduledAt: Date },
  ): ScheduledMessage {
    return new ScheduledMessage({
      id: 0,
      ownerId,
      target: checked.target,
      content: checked.content,
      renderedContent: checked.renderedContent,
      ...o,
      delivered: false,
      deliveredMessageId: null,
      failed: false,
      failureMessage: null,
    });
  }

  static restore(state: ScheduledMessageState): ScheduledMessage {
    return new ScheduledMessage({ ...state });
  }

  withId(id: number): ScheduledMessage {
    return new ScheduledMessage({ ...this.state, id });
  }

  get id(): number {
    return this.state.id;
  }
  get ownerId(): number {
    return this.state.ownerId;
  }
  get target(): ScheduledTarget {
    return this.state.target;
  }
  get content(): string {
    return this.state.content;
  }
  get scheduledAt(): Date {
    return this.state.scheduledAt;
  }
  get type(): ScheduledMessageType {
    return this.state.target.kind === 'channel' ? 'stream' : 'private';
  }

  /**
   * Zulip's edit_scheduled_message guards: a sent message cannot change, and one that failed
   * needs a new delivery time.
   */
  assertEditable(newTime: Date | null): void {
    if (this.state.delivered) throw scheduledMessageAlreadySent();
    if (this.state.failed && newTime === null) throw deliveryTimeNotInFuture();
  }

  /**
   * Applies an edit: a new target (after a fresh check), or a new topic of a channel message (a
   * topic is ignored for a direct message); new content; a new time. The client is the editing
   * one, and a failed message is pending again.
   */
  edit(e: {
    target?: ScheduledTarget;
    topic?: string;
    content?: { content: string; renderedContent: string };
    scheduledAt?: Date;
    sendingClient: string;
  }): void {
    const s = this.state;
    if (e.target !== undefined) s.target = e.target;
    else if (e.topic !== undefined && s.target.kind === 'channel') s.target = { ...s.target, topic: e.topic };
    if (e.content !== undefined) Object.assign(s, e.content);
    if (e.scheduledAt !== undefined) s.scheduledAt = e.scheduledAt;
    s.sendingClient = e.sendingClient;
    s.failed = false;
    s.failureMessage = null;
  }

  markDelivered(messageId: number): void {
    this.state.delivered = true;
    this.state.deliveredMessageId = messageId;
  }

  markFailed(failureMessage: string): void {
    this.state.failed = true;
    this.state.failureMessage = failureMessage;
  }

  view(): ScheduledMessageView {
    const s = this.state;
    const common = { id: s.id, content: s.content, renderedContent: s.renderedContent, scheduledAt: s.scheduledAt, failed: s.failed };
    if (s.target.kind === 'channel') return { ...common, type: 'stream', to: s.target.channelId, topic: s.target.topic };
    return { ...common, type: 'private', to: shownDirectRecipients(s.ownerId, s.target.participantIds) };
  }

  snapshot(): Readonly<ScheduledMessageState> {
    return { ...this.state };
  }
}
