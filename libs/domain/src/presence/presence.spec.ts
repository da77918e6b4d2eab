import { aPresence, secondsAfter, T0 } from '../../test/builders.js';
import {
  announcesPresence,
  fetchedLastUpdateId,
  hiddenPresenceTime,
  isOfflineAt,
  legacyStatus,
  parsePresenceStatus,
  planPresenceUpdate,
  presenceEventWanted,
  presenceFetch,
  shownPresence,
  unixSeconds,
} from './presence.js';

describe('the status of a report', () => {
  it('is active or idle, anything else is refused with the value', () => {
    expect(parsePresenceStatus('active')).toBe('active');
    expect(parsePresenceStatus('idle')).toBe('idle');
    expect(() => parsePresenceStatus('offline')).toThrow('Invalid status: offline');
    expect(() => parsePresenceStatus('Active')).toThrow('Invalid status: Active');
    expect(() => parsePresenceStatus('')).toThrow('Invalid status: ');
  });
});

describe('planning a presence report', () => {
  it('creates the first presence: connected now, active only when the report says so', () => {
    expect(planPresenceUpdate(null, 'active', T0)).toEqual({ write: { lastActive: T0, lastConnected: T0 }, creating: true, becameOnline: true });
    expect(planPresenceUpdate(null, 'idle', T0)).toEqual({ write: { lastActive: null, lastConnected: T0 }, creating: true, becameOnline: false });
  });

  it('writes nothing when both times are at most 55 s old', () => {
    expect(planPresenceUpdate(aPresence(55), 'active', T0)).toEqual({ write: null, creating: false, becameOnline: false });
    expect(planPresenceUpdate(aPresence(10, 55), 'idle', T0).write).toBeNull();
  });

  it('moves the connection time past 55 s, and the activity time only on active reports', () => {
    expect(planPresenceUpdate(aPresence(100, 56), 'idle', T0).write).toEqual({ lastActive: secondsAfter(T0, -100), lastConnected: T0 });
    expect(planPresenceUpdate(aPresence(56, 56), 'active', T0).write).toEqual({ lastActive: T0, lastConnected: T0 });
    expect(planPresenceUpdate(aPresence(56, 10), 'active', T0).write).toEqual({ lastActive: T0, lastConnected: T0 });
  });

  it('keeps the connection time at least the activity time', () => {
    expect(planPresenceUpdate(aPresence(100, null), 'active', T0).write).toEqual({ lastActive: T0, lastConnected: T0 });
    // A report older than what is stored does not move the connection back.
    const future = { lastActive: secondsAfter(T0, -100), lastConnected: secondsAfter(T0, 30) };
    expect(planPresenceUpdate(future, 'active', T0).write).toEqual({ lastActive: T0, lastConnected: secondsAfter(T0, 30) });
  });

  it('says the user came online when active after more than 130 s without activity', () => {
    expect(planPresenceUpdate(aPresence(130, 10), 'active', T0).becameOnline).toBe(false);
    expect(planPresenceUpdate(aPresence(131, 10), 'active', T0).becameOnline).toBe(true);
    expect(planPresenceUpdate(aPresence(null, 10), 'active', T0).becameOnline).toBe(true);
    expect(planPresenceUpdate(aPresence(131, 10), 'idle', T0).becameOnline).toBe(false);
  });

  it('announces new and returning users unless the organization has presence off; forced always', () => {
    const created = planPresenceUpdate(null, 'idle', T0);
    const returning = planPresenceUpdate(aPresence(300), 'active', T0);
    const ping = planPresenceUpdate(aPresence(60), 'active', T0);
    expect(announcesPresence(created, { force: false, realmPresenceDisabled: false })).toBe(true);
    expect(announcesPresence(returning, { force: false, realmPresenceDisabled: false })).toBe(true);
    expect(announcesPresence(ping, { force: false, realmPresenceDisabled: false })).toBe(false);
    expect(announcesPresence(returning, { force: false, realmPresenceDisabled: true })).toBe(false);
    expect(announcesPresence(ping, { force: true, realmPresenceDisabled: true })).toBe(true);
  });

  it('skips the immediate event above 100 active users unless forced', () => {
    expect(presenceEventWanted(100, false)).toBe(true);
    expect(presenceEventWanted(101, false)).toBe(false);
    expect(presenceEventWanted(101, true)).toBe(true);
  });

  it('hides a user who turns presence off 320 s in the past', () => {
    expect(hiddenPresenceTime(T0)).toEqual(secondsAfter(T0, -320));
  });
});

describe('showing presence', () => {
  const joined = secondsAfter(T0, -86_400);

  it('reads missing times as the join date', () => {
    expect(shownPresence(aPresence(null, 10), joined)).toEqual({ active: joined, connected: secondsAfter(T0, -10) });
  });

  it('is active in the legacy format while the activity is at most 70 s older than the connection', () => {
    expect(legacyStatus({ active: secondsAfter(T0, -70), connected: T0 })).toEqual({ status: 'active', timestamp: unixSeconds(T0) - 70 });
    expect(legacyStatus({ active: secondsAfter(T0, -71), connected: T0 })).toEqual({ status: 'idle', timestamp: unixSeconds(T0) });
  });

  it('truncates timestamps to whole seconds', () => {
    expect(unixSeconds(new Date(1_700_000_000_999))).toBe(1_700_000_000);
  });

  it('is offline once the timestamp is more than 200 s old', () => {
    expect(isOfflineAt(unixSeconds(T0) - 200, T0)).toBe(false);
    expect(isOfflineAt(unixSeconds(T0) - 201, T0)).toBe(true);
  });
});

describe('what a presence fetch returns', () => {
  it('defaults to the last 14 days', () => {
    expect(presenceFetch(T0, null, null)).toEqual({ none: false, afterUpdateId: null, connectedSince: secondsAfter(T0, -14 * 86_400) });
  });

  it('takes the history limit, 0 meaning nothing', () => {
    expect(presenceFetch(T0, 365, null).connectedSince).toEqual(secondsAfter(T0, -365 * 86_400));
    expect(presenceFetch(T0, 0, null).none).toBe(true);
  });

  it('drops the time filter for clients that already have data', () => {
    expect(presenceFetch(T0, 3, 7)).toEqual({ none: false, afterUpdateId: 7, connectedSince: null });
    expect(presenceFetch(T0, 3, 0).connectedSince).toEqual(secondsAfter(T0, -3 * 86_400));
    expect(presenceFetch(T0, 3, -1)).toEqual({ none: false, afterUpdateId: -1, connectedSince: secondsAfter(T0, -3 * 86_400) });
  });

  it('keeps absurd history limits representable', () => {
    expect(Number.isFinite(presenceFetch(T0, Number.MAX_SAFE_INTEGER, null).connectedSince!.getTime())).toBe(true);
    expect(Number.isFinite(presenceFetch(T0, -Number.MAX_SAFE_INTEGER, null).connectedSince!.getTime())).toBe(true);
  });

  it('reports the newest update id returned, else the client one, else -1', () => {
    expect(fetchedLastUpdateId([3, 9, 4], 2)).toBe(9);
    expect(fetchedLastUpdateId([], 5)).toBe(5);
    expect(fetchedLastUpdateId([], null)).toBe(-1);
  });
});
