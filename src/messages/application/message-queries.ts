import type { Reaction, Submessage, TopicVariantRow } from '@app/domain/messages';
import type { MessageRecord } from './message.ports.js';

/** A narrow term as the API sends it. */
export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

/** A narrow compiled by the service into facts the query can use. */
export interface CompiledNarrow {
  /** Search every message of this channel (history readable), else only the user's rows. */
  channelHistory: { channelId: number; requireRow: boolean } | null;
  conditions: Condition[];
  /** A spectator's narrow: every message of the organization's web-public channels (no user rows; all read). */
  spectator?: boolean;
}

export type Condition =
  | { kind: 'channel'; channelId: number; negated: boolean }
  | { kind: 'topic'; topic: string; negated: boolean }
  | { kind: 'sender'; userId: number; negated: boolean }
  | { kind: 'recipient'; recipientId: number | null; negated: boolean }
  | { kind: 'dm_including'; userId: number; negated: boolean }
  | { kind: 'is'; what: 'dm' | 'starred' | 'unread' | 'mentioned' | 'resolved' | 'alerted'; negated: boolean }
  | { kind: 'id'; id: number; negated: boolean }
  | { kind: 'search'; text: string; negated: boolean }
  | { kind: 'has'; what: 'attachment' | 'link' | 'image' | 'reaction'; negated: boolean };

export interface FetchedMessage {
  message: MessageRecord;
  flags: number | null;
}

export interface RangeResult {
  messages: FetchedMessage[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

export interface SenderInfo {
  id: number;
  /** The API email (`user<id>@<domain>` for users who hide their address). */
  email: string;
  /** The real address: only for the Gravatar URL, never shown. */
  deliveryEmail: string;
  emailAddressVisibility: number;
  fullName: string;
  avatarVersion: number;
  /** The uploaded avatar's stored path; null: the Gravatar. */
  avatarPath: string | null;
}

/** A message that matched a narrow, with what its search fields are made of. */
export interface NarrowMatch {
  id: number;
  topic: string;
  renderedContent: string;
}

export abstract class MessageQueries {
  abstract range(
    realmId: number,
    userId: number,
    narrow: CompiledNarrow,
    anchor: number | 'newest' | 'oldest' | 'first_unread',
    numBefore: number,
    numAfter: number,
    includeAnchor: boolean,
  ): Promise<RangeResult>;
  abstract byIds(realmId: number, userId: number, narrow: CompiledNarrow, ids: readonly number[]): Promise<FetchedMessage[]>;
  /**
   * Which of these messages match the narrow among those the user received (holds a row for,
   * as Zulip's messages_in_narrow_backend), ascending ids.
   */
  abstract matching(realmId: number, userId: number, narrow: CompiledNarrow, ids: readonly number[]): Promise<NarrowMatch[]>;
  /**
   * Each stored spelling of the channel's topics with its newest message id, over every message
   * of the channel, or (`rowsOf`) only those that user holds a row for.
   */
  abstract topicVariants(realmId: number, channelId: number, rowsOf: number | null): Promise<TopicVariantRow[]>;
  abstract senders(ids: readonly number[]): Promise<Map<number, SenderInfo>>;
  /** The reactions of these messages, oldest first, by message id (one statement). */
  abstract reactions(realmId: number, messageIds: readonly number[]): Promise<Map<number, Reaction[]>>;
  /** The submessages of these messages, in order, by message id (one statement). */
  abstract submessages(realmId: number, messageIds: readonly number[]): Promise<Map<number, Submessage[]>>;
  abstract channelNames(ids: readonly number[]): Promise<Map<number, string>>;
  abstract directParticipants(recipientIds: readonly number[]): Promise<Map<number, SenderInfo[]>>;
  abstract realmStringId(realmId: number): Promise<string>;
}
