import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import { type ChannelAccessView, hasContentAccess, type Viewer } from '../channels/channel-access.policy.js';
import { LIMITS } from '../realm/realm-settings.js';

/** The `type` of a draft as clients send it (no `direct`/`channel` aliases here). */
export const DRAFT_TYPES = ['private', 'stream', ''] as const;
export type DraftType = (typeof DRAFT_TYPES)[number];

/** A draft as the request carries it, after the structural checks of the parameter parser. */
export interface DraftInput {
  readonly type: DraftType;
  readonly to: readonly number[];
  readonly topic: string;
  readonly content: string;
  /** UNIX seconds (int or float); null = now. */
  readonly timestamp: number | null;
}

/** Where a draft points before the application has checked that the target exists and is visible. */
export type DraftTarget =
  | { readonly kind: 'none' }
  | { readonly kind: 'channel'; readonly channelId: number }
  | { readonly kind: 'direct'; readonly userIds: readonly number[] };

export interface CheckedDraft {
  readonly content: string;
  readonly topic: string;
  readonly timestamp: number;
  readonly target: DraftTarget;
}

const MESSAGE_TRUNCATED = '\n[message truncated]';
const TOPIC_TRUNCATED = '...';

/** Zulip's truncate_content, counting code points as Python does. */
export function truncateText(content: string, maxLength: number, marker: string): string {
  if (codePointLength(content) <= maxLength) return content;
  return Array.from(content).slice(0, maxLength - codePointLength(marker)).join('') + marker;
}

/** Zulip's normalize_body: trailing whitespace and leading newlines go, NUL is refused, long bodies are cut. */
export function normaliseDraftContent(body: string): string {
  const trimmed = body.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (trimmed.length === 0) throw badRequest('Message must not be empty');
  if (trimmed.includes('\0')) throw badRequest('Message must not contain null bytes');
  return truncateText(trimmed, LIMITS.maxMessageLength, MESSAGE_TRUNCATED);
}

/** Python's round(x, 6) for the timestamps clients send (microsecond precision). */
const roundMicros = (seconds: number): number => Math.round(seconds * 1e6) / 1e6;

/** The last second a Python datetime can hold (year 9999); Zulip fails beyond it. */
const MAX_TIMESTAMP = 253_402_300_799;

/**
 * Zulip's further_validated_draft_dict, minus what needs the database (channel access, users):
 * content, then timestamp, then for channel drafts the topic and the single channel id. The
 * first failure wins.
 */
export function checkDraft(input: DraftInput, nowSeconds: number): CheckedDraft {
  const content = normaliseDraftContent(input.content);
  const timestamp = roundMicros(input.timestamp ?? nowSeconds);
  if (timestamp < 0) throw badRequest('Timestamp must not be negative.');
  if (timestamp > MAX_TIMESTAMP) throw badRequest('Timestamp is too large.');
  if (input.type === 'stream') {
    const topic = truncateText(input.topic, LIMITS.maxTopicLength, TOPIC_TRUNCATED);
    if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (input.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    return { content, topic, timestamp, target: { kind: 'channel', channelId: input.to[0] } };
  }
  if (input.type === 'private' && input.to.length > 0) {
    return { content, topic: '', timestamp, target: { kind: 'direct', userIds: [...input.to] } };
  }
  return { content, topic: '', timestamp, target: { kind: 'none' } };
}

export const invalidDraftChannel = (): DomainError => badRequest('Invalid channel ID');

/**
 * Zulip's access_stream_by_id for a channel draft: the channel exists in the organization, is
 * not archived and the owner may read it (missing and invisible look the same).
 */
export function assertDraftChannelAccessible(
  channel: (ChannelAccessView & { readonly isArchived: boolean }) | null,
  viewer: Viewer,
  subscribed: boolean,
): void {
  if (channel === null || channel.isArchived || !hasContentAccess(channel, viewer, subscribed)) throw invalidDraftChannel();
}

/** What the application knows of a user named in a direct draft's `to`. */
export interface DraftRecipientFacts {
  readonly email: string;
  readonly isActive: boolean;
}

/**
 * Resolves a direct draft's recipients as Zulip's conversation lookup does, and returns the
 * `to` a client sees: the other participant of a 1:1 conversation, the owner alone for a draft to
 * oneself, and everyone but the owner (ascending) for a group conversation. `users` holds the
 * named users found in the organization.
 */
export function directDraftRecipients(
  ownerId: number,
  to: readonly number[],
  users: ReadonlyMap<number, DraftRecipientFacts>,
): number[] {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  for (const id of ids) if (!users.has(id)) throw badRequest(`Invalid user ID ${id}`);
  for (const id of ids) {
    const u = users.get(id)!;
    if (!u.isActive) throw badRequest(`'${u.email}' is no longer using Zulip.`);
  }
  const others = ids.filter((id) => id !== ownerId);
  return others.length === 0 ? [ownerId] : others;
}

export interface DraftState {
  id: number;
  ownerId: number;
  type: DraftType;
  /** `[channel id]` for channel drafts, the displayed participants for direct ones, `[]` otherwise. */
  to: number[];
  topic: string;
  content: string;
  /** UNIX seconds, microsecond precision. */
  timestamp: number;
}

/** A checked draft whose target the application resolved (the `to` clients will see). */
export interface ResolvedDraft {
  readonly type: DraftType;
  readonly to: readonly number[];
  readonly topic: string;
  readonly content: string;
  readonly timestamp: number;
}

export function resolvedDraft(checked: CheckedDraft, directTo: readonly number[] = []): ResolvedDraft {
  const { content, topic, timestamp, target } = checked;
  switch (target.kind) {
    case 'channel':
      return { type: 'stream', to: [target.channelId], topic, content, timestamp };
    case 'direct':
      return { type: 'private', to: [...directTo], topic: '', content, timestamp };
    case 'none':
      // A direct draft with nobody in `to` is stored unaddressed, as Zulip does.
      return { type: '', to: [], topic: '', content, timestamp };
  }
}

export const draftDoesNotExist = (): DomainError => new DomainError('Draft does not exist', 'BAD_REQUEST', 'not_found');

/** A user's server-side draft; only its owner ever sees it. */
export class Draft {
  private constructor(private state: DraftState) {}

  static create(ownerId: number, d: ResolvedDraft): Draft {
    return new Draft({ id: 0, ownerId, ...Draft.fields(d) });
  }

  static restore(state: DraftState): Draft {
    return new Draft({ ...state, to: [...state.to] });
  }

  private static fields(d: ResolvedDraft): Omit<DraftState, 'id' | 'ownerId'> {
    return { type: d.type, to: [...d.to], topic: d.topic, content: d.content, timestamp: d.timestamp };
  }

  /** PATCH replaces every field. */
  replaceWith(d: ResolvedDraft): void {
    this.state = { ...this.state, ...Draft.fields(d) };
  }

  get id(): number {
    return this.state.id;
  }

  get ownerId(): number {
    return this.state.ownerId;
  }

  /** Stored drafts carry their id; a new one gets it from the database. */
  withId(id: number): Draft {
    return new Draft({ ...this.state, id });
  }

  snapshot(): Readonly<DraftState> {
    return { ...this.state, to: [...this.state.to] };
  }
}
