import { createHash } from 'node:crypto';
import { avatarSourceOf, canSeeDeliveryEmail, clientComputesGravatar, type EmailViewer, isAdmin, isGuest, isOwner } from '@app/domain/users';
import type { BotRecord } from './bot.ports.js';
import type { UserGroupView, UserRecord } from './user.ports.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';

/** Zulip's get_gravatar_url: the identicon of the address, 500 pixels for the medium size. */
export function gravatarUrl(email: string, version: number, medium = false): string {
  const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${version}`;
}

/** What a user's avatar URL is made of (Zulip's get_avatar_field). */
export interface AvatarFacts {
  /** The real address (Gravatar's key; never shown). */
  deliveryEmail: string;
  avatarVersion: number;
  /** The uploaded avatar's stored path, or null for the Gravatar. */
  avatarPath: string | null;
}

/**
 * Zulip's avatar_url: an uploaded avatar's file (its path changes with every upload, so it
 * carries no version), else the Gravatar of the real address.
 */
export function avatarUrl(u: AvatarFacts, medium = false): string {
  if (u.avatarPath !== null) return `/user_avatars/${u.avatarPath}${medium ? '-medium' : ''}.png`;
  return gravatarUrl(u.deliveryEmail, u.avatarVersion, medium);
}

/**
 * Zulip's client_gravatar rule: a client that computes Gravatar URLs gets null for users whose
 * avatar is their Gravatar and whose real address it may see (see clientComputesGravatar).
 */
export function shownAvatarUrl(u: AvatarFacts & { emailAddressVisibility: number }, clientGravatar: boolean): string | null {
  return u.avatarPath === null && clientComputesGravatar(clientGravatar, u.emailAddressVisibility) ? null : avatarUrl(u);
}

/** The avatar fields of a realm_user `update` event and of register's own-avatar fields. */
export function avatarFields(u: AvatarFacts) {
  return {
    avatar_source: avatarSourceOf(u.avatarPath),
    avatar_url: avatarUrl(u),
    avatar_url_medium: avatarUrl(u, true),
    avatar_version: u.avatarVersion,
  };
}

/** A bot's avatar: uploaded, or the Gravatar of its address (a bot's address is its email). */
export const botAvatarUrl = (b: Pick<BotRecord, 'email' | 'avatarVersion' | 'avatarPath'>): string =>
  avatarUrl({ deliveryEmail: b.email, avatarVersion: b.avatarVersion, avatarPath: b.avatarPath });

/** A bot as realm_bots and realm_bot `add` show it (`owner_id` always present; the add event drops a null one). */
export function presentBot(b: BotRecord): Record<string, unknown> {
  return {
    email: b.email,
    user_id: b.id,
    full_name: b.fullName,
    bot_type: b.botType,
    is_active: b.isActive,
    api_key: b.apiKey,
    default_sending_stream: b.defaultSendingStream,
    default_events_register_stream: b.defaultEventsRegisterStream,
    default_all_public_streams: b.defaultAllPublicStreams,
    owner_id: b.ownerId,
    avatar_url: botAvatarUrl(b),
    // Outgoing-webhook and embedded services are not modelled by this server.
    services: [],
  };
}

/** Python's isoformat(timespec="minutes") of an aware UTC datetime: 2024-01-02T03:04+00:00. */
export function isoMinutes(d: Date): string {
  return `${d.toISOString().slice(0, 16)}+00:00`;
}

export const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);

export interface PresentUserOptions {
  clientGravatar: boolean;
  /** Who looks: their role decides whether they see the real address (none: they may). */
  viewer?: EmailViewer;
  /** The user's custom profile field values (humans only; absent: no `profile_data` key). */
  profileData?: Record<string, unknown>;
}

/**
 * Zulip's format_user_row. An avatar is the uploaded one, or the Gravatar of the real address;
 * with client_gravatar the client computes the latter, which it can only when the address is public.
 */
export function presentUser(u: UserRecord, o: PresentUserOptions): Record<string, unknown> {
  const seesAddress = o.viewer === undefined || canSeeDeliveryEmail(o.viewer, u.id, u.emailAddressVisibility);
  const out: Record<string, unknown> = {
    email: u.email,
    user_id: u.id,
    avatar_version: u.avatarVersion,
    is_admin: isAdmin(u.role),
    is_owner: isOwner(u.role),
    is_guest: isGuest(u.role),
    role: u.role,
    is_bot: u.isBot,
    full_name: u.fullName,
    timezone: u.timezone,
    is_active: u.isActive,
    date_joined: isoMinutes(u.dateJoined),
    delivery_email: seesAddress ? u.deliveryEmail : null,
    is_imported_stub: false,
    avatar_url: shownAvatarUrl(u, o.clientGravatar),
  };
  if (u.isBot) {
    out.bot_type = u.botType;
    out.bot_owner_id = u.botOwnerId;
    if (u.isSystemBot) out.is_system_bot = true;
  } else if (o.profileData !== undefined) {
    out.profile_data = o.profileData;
  }
  return out;
}

export function presentUserGroup(g: UserGroupView): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: g.members,
    direct_subgroup_ids: g.directSubgroupIds,
    creator_id: g.creatorId,
    date_created: g.dateCreated ? unixSeconds(g.dateCreated) : null,
    is_system_group: g.isSystemGroup,
    deactivated: g.deactivated,
    ...Object.fromEntries(Object.entries(g.settings).map(([k, v]) => [k, presentGroupSetting(v)])),
  };
}

