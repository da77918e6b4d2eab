import type { Actor, Role } from '@app/domain/users';

/** An organization as `list-organizations` shows it. */
export interface OrganizationSummary {
  id: number;
  /** Zulip's string_id: "" for the root organization (the one the first start created). */
  subdomain: string;
  name: string;
  deactivated: boolean;
  dateCreated: Date;
  activeHumans: number;
}

/** A user the admin commands name by email. */
export interface AdminUserRef {
  id: number;
  email: string;
  role: Role;
  isActive: boolean;
  isBot: boolean;
}

/** What the admin commands read directly (no use case of their own). */
export abstract class AdminQueries {
  abstract organizations(): Promise<OrganizationSummary[]>;
  abstract organizationBySubdomain(subdomain: string): Promise<OrganizationSummary | null>;
  /** The organization's longest-standing active human owner, as the acting user of admin commands. */
  abstract actingOwner(realmId: number): Promise<Actor | null>;
  /** A user by delivery email (case-insensitive), bots and deactivated users included. */
  abstract userByEmail(realmId: number, email: string): Promise<AdminUserRef | null>;
  /** The newest outbox row of `kind` to `to`: its id and delivery status. */
  abstract latestEmail(kind: string, to: string): Promise<{ id: number; status: string; lastError: string | null } | null>;
}

/** One record of an organization export: `section` names the JSON array it belongs to. */
export type ExportSection = 'users' | 'channels' | 'subscriptions' | 'messages';
export interface ExportRecord {
  section: ExportSection;
  row: Record<string, unknown>;
}

/**
 * Reads an organization for export in batches of `batchSize` rows (keyset pagination by id),
 * so an organization of any size streams through in bounded memory, section after section.
 */
export abstract class OrganizationExportSource {
  abstract records(realmId: number, batchSize: number): AsyncIterable<ExportRecord>;
}

/** An exported user, as import reads it back. */
export interface ImportedUser {
  id: number;
  email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  is_bot: boolean;
  is_system_bot: boolean;
  bot_type: number | null;
  date_joined: string;
  timezone: string;
}

export interface ImportedChannel {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  is_archived: boolean;
  date_created: string;
}

export interface ImportedSubscription {
  user_id: number;
  channel_id: number;
  active: boolean;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
}

export interface ImportedMessage {
  id: number;
  sender_id: number;
  /** A channel message's channel; null for a direct message. */
  channel_id: number | null;
  /** A direct message's participants (sender included); absent for a channel message. */
  direct_user_ids?: number[];
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: string;
  sending_client: string;
  last_edit_time: string | null;
  /** Who has the message (user_messages) and their flags (read, starred, …). */
  user_flags: [number, number][];
}

/**
 * The writes of an import that no other context's repository offers, inside the import's
 * transaction (`tx.adminImport`).
 */
export abstract class ImportWriter {
  abstract userIdByEmail(realmId: number, email: string): Promise<number | null>;
  /** An existing channel of that name (case-insensitive), e.g. one of the initial channels. */
  abstract channelIdByName(realmId: number, name: string): Promise<number | null>;
  /** Sets each channel's first_message_id from its imported messages. */
  abstract finishChannels(realmId: number): Promise<void>;
  /** Account fields beyond what creating an account sets. */
  abstract setAccountState(userId: number, s: { isActive: boolean; dateJoined: Date; timezone: string }): Promise<void>;
  /** The settings (permission groups) new channels of the organization take: those of its `general` channel. */
  abstract channelGroupIds(realmId: number): Promise<Record<string, number>>;
  abstract setArchived(channelId: number): Promise<void>;
  abstract upsertSubscription(realmId: number, s: ImportedSubscription): Promise<void>;
  /** Inserts the message and its user_messages rows; returns its new id. */
  abstract insertMessage(
    realmId: number,
    recipientId: number,
    m: ImportedMessage & { sender_id: number; channel_id: number | null; user_flags: [number, number][] },
  ): Promise<number>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly adminImport: ImportWriter;
  }
}
