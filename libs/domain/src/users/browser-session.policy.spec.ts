import { BotType } from './role.js';
import { idleCutoff, type SessionFacts, sessionExpiry, sessionIsValid } from './browser-session.policy.js';

const limits = { lifetimeSeconds: 3600, idleTimeoutSeconds: 600 };
const now = new Date('2026-11-28T12:00:00Z');
const at = (secondsFromNow: number) => new Date(now.getTime() + secondsFromNow * 1000);
const live = (o: Partial<SessionFacts> = {}): SessionFacts => ({
  expiresAt: at(60),
  lastSeenAt: at(-60),
  userActive: true,
  realmDeactivated: false,
  botType: null,
  passwordUnchanged: true,
  ...o,
});

describe('browser sessions', () => {
  it('expire a lifetime after they begin, and idle out after the idle timeout', () => {
    expect(sessionExpiry(now, limits)).toEqual(at(3600));
    expect(idleCutoff(now, limits)).toEqual(at(-600));
  });

  it('authenticate while unexpired, recently used, with the same password, for an active user of an active organization', () => {
    expect(sessionIsValid(live(), limits, now)).toBe(true);
    expect(sessionIsValid(live({ botType: BotType.GENERIC }), limits, now)).toBe(true);
  });

  it.each([
    ['expired at this very moment', { expiresAt: now }],
    ['idle exactly the timeout', { lastSeenAt: at(-600) }],
    ['the password changed since', { passwordUnchanged: false }],
    ['a deactivated user', { userActive: false }],
    ['a deactivated organization', { realmDeactivated: true }],
    ['an incoming-webhook bot', { botType: BotType.INCOMING_WEBHOOK }],
  ] as [string, Partial<SessionFacts>][])('do not authenticate: %s', (_, o) => {
    expect(sessionIsValid(live(o), limits, now)).toBe(false);
  });
});
