import type { Tx } from '../../shared/application/unit-of-work.js';
/** A bot as Zulip's realm_bots / GET /bots / realm_bot events show it (channel names resolved). */
export interface BotRecord {
  id: number;
  email: string;
  fullName: string;
  botType: number;
  isActive: boolean;
  apiKey: string;
  ownerId: number | null;
  ownerEmail: string | null;
  avatarVersion: number;
  /** The uploaded avatar's stored path; null: the Gravatar of the bot's address. */
  avatarPath: string | null;
  defaultSendingStream: string | null;
  defaultEventsRegisterStream: string | null;
  defaultAllPublicStreams: boolean;
  /** One of the default channels is private: realm_bot events then reach only the owner. */
  hasPrivateDefaultChannel: boolean;
}

/** A bot as stored: its default channels by id (names are the channels context's, see BotChannels). */
export type StoredBot = Omit<BotRecord, 'defaultSendingStream' | 'defaultEventsRegisterStream' | 'hasPrivateDefaultChannel'> & {
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
};

export interface BotChange {
  botOwnerId?: number;
  defaultSendingStreamId?: number | null;
  defaultEventsRegisterStreamId?: number | null;
  defaultAllPublicStreams?: boolean;
  apiKey?: string;
}

export interface BotChannel {
  id: number;
  name: string;
  inviteOnly: boolean;
}

export abstract class BotRepository {
  /** The organization's bots (system bots excluded), deactivated ones included; owned by `ownerId` when given. */
  abstract list(realmId: number, o: { ownerId?: number; activeOnly?: boolean }): Promise<StoredBot[]>;
  abstract find(realmId: number, botId: number): Promise<StoredBot | null>;
  abstract update(realmId: number, botId: number, change: BotChange): Promise<void>;
  /** Active human administrators and owners (Zulip's get_human_admin_users). */
  abstract humanAdminIds(realmId: number): Promise<number[]>;
}

/**
 * The channels a bot's settings name. Owned here, implemented by the channels context (users may
 * not read channels: that would be an arrow against CONTEXT_DEPENDENCIES); bound in src/app.
 */
export abstract class BotChannels {
  /**
   * Zulip's access_stream_by_name for a bot's default channel: an active channel of the
   * organization, public (and the user no guest) or one the user is subscribed to; else null.
   */
  abstract accessibleByName(tx: Tx, realmId: number, user: { id: number; isGuest: boolean }, name: string): Promise<BotChannel | null>;
  /** The organization's channels among `ids`, archived ones included. */
  abstract byIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<Map<number, BotChannel>>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly bots: BotRepository;
  }
}
