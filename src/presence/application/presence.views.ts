import { isOfflineAt, legacyStatus, type ShownPresence, unixSeconds } from '@app/domain/presence';

/**
 * Presence as Zulip's API shows it. Since Zulip 7.0 the server keeps no per-client data: the
 * legacy format always names one client, "website", never pushable.
 */

/** The modern format (`slim_presence`, `last_update_id`, simplified_presence_events). */
export const presentModernPresence = (p: ShownPresence) => ({
  active_timestamp: unixSeconds(p.active),
  idle_timestamp: unixSeconds(p.connected),
});

/** One client's entry of the legacy format (format_legacy_presence_dict). */
export function presentLegacyClientPresence(p: ShownPresence) {
  const { status, timestamp } = legacyStatus(p);
  return { client: 'website', status, timestamp, pushable: false };
}

/** A user's legacy entry: the newest client's data twice, as `aggregated` and `website`. */
export function presentLegacyPresence(p: ShownPresence) {
  const website = presentLegacyClientPresence(p);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

/** GET /users/{user}/presence: no client names; `aggregated` says "offline" once it is stale. */
export function presentSingleUserPresence(p: ShownPresence, now: Date) {
  const { status, timestamp } = legacyStatus(p);
  return {
    aggregated: { status: isOfflineAt(timestamp, now) ? 'offline' : status, timestamp },
    website: { status, timestamp },
  };
}
