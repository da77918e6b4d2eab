import { badRequest } from '../shared/domain-error.js';

/**
 * User presence (Zulip's zerver/actions/presence.py, zerver/lib/presence.py). A user's presence
 * is two times: when a client last reported them active, and when one was last connected; a
 * per-organization counter numbers every change, so clients can fetch only what is newer.
 */

/** Zulip's presence settings (zproject/default_settings.py). */
export const PRESENCE_SETTINGS = {
  /** Clients treat a user as offline when their newest timestamp is older than this. */
  offlineThresholdSeconds: 200,
  /** How often clients report presence. */
  pingIntervalSeconds: 60,
  /** A stored time changes only when the new one is at least this much newer. */
  updateMinFreqSeconds: 55,
  /** Legacy format: "active" while the last activity is at most this older than the last connection. */
  legacyActivityOffsetSeconds: 70,
  /** Organizations with more active users get no immediate `presence` events. */
  userLimitForEvents: 100,
  /** What presence fetches return without `history_limit_days`. */
  defaultHistoryDays: 14,
} as const;

export type PresenceStatus = 'active' | 'idle';

/** The `status` of a presence update (UserPresence.status_from_string). */
export function parsePresenceStatus(raw: string): PresenceStatus {
  if (raw === 'active' || raw === 'idle') return raw;
  throw badRequest(`Invalid status: ${raw}`);
}

/** A user's stored presence. */
export interface PresenceTimes {
  lastActive: Date | null;
  lastConnected: Date | null;
}

export interface PresenceUpdate {
  /** The times to store (with a new update id), or null when nothing changes. */
  write: PresenceTimes | null;
  /** The user has no presence yet: the row is created. */
  creating: boolean;
  /** An active report after a long enough absence: others should hear at once. */
  becameOnline: boolean;
}

const DAY_MS = 86_400_000;
const sinceMs = (at: Date, t: Date | null) => (t === null ? DAY_MS : at.getTime() - t.getTime());

/**
 * Zulip's do_update_user_presence: what one report (`status` at `at`) changes. Times move only
 * when the new one is more than 55 s newer, so several open clients cause one write a minute;
 * `lastConnected` never falls behind `lastActive`.
 */
export function planPresenceUpdate(current: PresenceTimes | null, status: PresenceStatus, at: Date): PresenceUpdate {
  const active = status === 'active';
  if (current === null) {
    return { write: { lastActive: active ? at : null, lastConnected: at }, creating: true, becameOnline: active };
  }
  const s = PRESENCE_SETTINGS;
  const sinceActive = sinceMs(at, current.lastActive);
  const minFreqMs = s.updateMinFreqSeconds * 1000;
  const becameOnline = active && sinceActive > (s.offlineThresholdSeconds - s.pingIntervalSeconds - 10) * 1000;
  const next: PresenceTimes = { ...current };
  let changed = false;
  if (sinceMs(at, current.lastConnected) > minFreqMs) {
    next.lastConnected = at;
    changed = true;
  }
  if (active && sinceActive > minFreqMs) {
    next.lastActive = at;
    if (next.lastConnected === null || at > next.lastConnected) next.lastConnected = at;
    changed = true;
  }
  return { write: changed ? next : null, creating: false, becameOnline };
}

/** Whether a stored change is announced by a `presence` event (Zulip: forced, or the realm has presence on and the user is new or came online). */
export function announcesPresence(u: PresenceUpdate, o: { force: boolean; realmPresenceDisabled: boolean }): boolean {
  return o.force || (!o.realmPresenceDisabled && (u.creating || u.becameOnline));
}

/** The immediate `presence` event is skipped in organizations above the limit, unless forced. */
export const presenceEventWanted = (activeUsers: number, force: boolean): boolean =>
  force || activeUsers <= PRESENCE_SETTINGS.userLimitForEvents;

/**
 * When a user turns presence_enabled off, their presence is replaced by one idle report this
 * long ago, so that they look offline since a few minutes before (Zulip's
 * do_change_user_setting: OFFLINE_THRESHOLD_SECS + 120).
 */
export const hiddenPresenceTime = (now: Date): Date =>
  new Date(now.getTime() - (PRESENCE_SETTINGS.offlineThresholdSeconds + 120) * 1000);

/** Both times, a missing one reading as the user's join date (the API always sends timestamps). */
export interface ShownPresence {
  active: Date;
  connected: Date;
}

export const shownPresence = (t: PresenceTimes, dateJoined: Date): ShownPresence => ({
  active: t.lastActive ?? dateJoined,
  connected: t.lastConnected ?? dateJoined,
});

/** Whole seconds, as Zulip's datetime_to_timestamp. */
export const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/** The legacy format's one status: active while the activity is recent next to the connection. */
export function legacyStatus(p: ShownPresence): { status: PresenceStatus; timestamp: number } {
  const activeEnough = p.active.getTime() + PRESENCE_SETTINGS.legacyActivityOffsetSeconds * 1000 >= p.connected.getTime();
  return activeEnough ? { status: 'active', timestamp: unixSeconds(p.active) } : { status: 'idle', timestamp: unixSeconds(p.connected) };
}

/** GET /users/{user}/presence reports "offline" once the timestamp is older than the threshold. */
export const isOfflineAt = (timestamp: number, now: Date): boolean =>
  unixSeconds(now) - timestamp > PRESENCE_SETTINGS.offlineThresholdSeconds;

/** Which rows a presence fetch returns (Zulip's get_presence_dict_by_realm). */
export interface PresenceFetch {
  /** history_limit_days = 0: the client wants no presence data. */
  none: boolean;
  /** Only rows changed after this update id. */
  afterUpdateId: number | null;
  /** Only users connected since then. */
  connectedSince: Date | null;
}

/** Bounds the history so that any client value gives a representable date (Python would fail with an overflow). */
const MAX_HISTORY_DAYS = 100_000;

export function presenceFetch(now: Date, historyDays: number | null, lastUpdateId: number | null): PresenceFetch {
  const days = Math.max(-MAX_HISTORY_DAYS, Math.min(MAX_HISTORY_DAYS, historyDays ?? PRESENCE_SETTINGS.defaultHistoryDays));
  // A client that already has data (last_update_id > 0) needs no time filter.
  const filterByTime = lastUpdateId === null || lastUpdateId <= 0;
  return {
    none: historyDays === 0,
    afterUpdateId: lastUpdateId,
    connectedSince: filterByTime ? new Date(now.getTime() - days * DAY_MS) : null,
  };
}

/**
 * `presence_last_update_id` of a fetch: the newest id among the rows returned; else the
 * client's own (nothing newer), else -1.
 */
export function fetchedLastUpdateId(rowIds: readonly number[], clientLastUpdateId: number | null): number {
  if (rowIds.length > 0) return rowIds.reduce((a, b) => (b > a ? b : a));
  return clientLastUpdateId ?? -1;
}
