import type { PresenceFetch, PresenceTimes, TypingSenderSettings } from '@app/domain/presence';

/** What a presence report reads about its user, with the user's presence row locked. */
export interface PresenceFacts {
  email: string;
  dateJoined: Date;
  /** The user's presence_enabled setting (off: reports change nothing). */
  presenceEnabled: boolean;
  /** The organization's presence_disabled setting (on: no `presence` events). */
  realmPresenceDisabled: boolean;
  /** The stored presence, null when the user has none yet. */
  current: PresenceTimes | null;
}

/** A user's presence as the fetches show it. */
export interface PresenceRow extends PresenceTimes {
  userId: number;
  email: string;
  dateJoined: Date;
  lastUpdateId: number;
}

export abstract class PresenceRepository {
  /** The user's facts (null when not a user of the organization), the presence row locked until COMMIT. */
  abstract lockFacts(realmId: number, userId: number): Promise<PresenceFacts | null>;
  /**
   * Stores the user's presence with the organization's next update id, in one statement that
   * takes the organization's counter last (its row lock is the hot one). `creating`: insert,
   * unless a concurrent request created the row first (then false is returned and nothing
   * changes); else update the existing row.
   */
  abstract write(realmId: number, userId: number, times: PresenceTimes, creating: boolean): Promise<boolean>;
  /** Forgets the user's presence (presence_enabled turned off starts over from one old report). */
  abstract delete(realmId: number, userId: number): Promise<void>;
  /** Active users (bots included) of the organization: who `presence` events go to. */
  abstract activeUserCount(realmId: number): Promise<number>;
  /**
   * The active users subscribed to the channel, at most `limit` (enough to tell a channel too
   * large for typing notifications).
   */
  abstract activeSubscriberIds(channelId: number, limit: number): Promise<number[]>;
  /**
   * Those of `userIds` who receive typing notifications (receives_typing_notifications), read in
   * the transaction: a request holds one pooled connection, never a second one.
   */
  abstract typingReceivers(realmId: number, userIds: readonly number[]): Promise<Set<number>>;
}

export abstract class PresenceQueries {
  /** Presence of the organization's active human users selected by `fetch`, by user id. */
  abstract realmPresences(realmId: number, fetch: PresenceFetch): Promise<PresenceRow[]>;
  /** One user's presence, null when none is stored. */
  abstract userPresence(realmId: number, userId: number): Promise<PresenceRow | null>;
}

/** An active user of the organization named in a presence request (bots included). */
export interface PresenceTarget {
  id: number;
  isBot: boolean;
}

export abstract class PresenceUsers {
  /** An active user of the organization by id, or by API email (case-insensitively, stripped). */
  abstract activeUser(realmId: number, key: { id: number } | { email: string }): Promise<PresenceTarget | null>;
}

/**
 * The sender's typing settings (Zulip: send_private_typing_notifications,
 * send_stream_typing_notifications; true by default), read before the transaction.
 */
export abstract class TypingSettings {
  abstract senderSettings(realmId: number, userId: number): Promise<TypingSenderSettings>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly presence: PresenceRepository;
  }
}
