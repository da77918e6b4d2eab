import { actionAudience, type AudienceCandidate } from './message-audience.js';

const c = (userId: number, o: Partial<AudienceCandidate> = {}): AudienceCandidate => ({ userId, hasRow: false, subscribed: false, isGuest: false, ...o });

/** 1 received and is subscribed; 2 subscribed later (no row); 3 left (row only); 4 a guest with a historical row; 5 a guest subscriber. */
const candidates = [
  c(1, { hasRow: true, subscribed: true }),
  c(2, { subscribed: true }),
  c(3, { hasRow: true }),
  c(4, { hasRow: true, isGuest: true }),
  c(5, { subscribed: true, isGuest: true }),
];

describe('actionAudience (event_recipient_ids_for_action_on_messages)', () => {
  it('is the rows of a direct message', () => {
    expect(actionAudience(null, [c(9, { hasRow: true }), c(3, { hasRow: true, isGuest: true }), c(4)])).toEqual([3, 9]);
  });

  it('is the subscribers holding a row for protected history', () => {
    expect(actionAudience({ inviteOnly: true, historyPublicToSubscribers: false }, candidates)).toEqual([1]);
  });

  it('is the subscribers of a private channel with shared history', () => {
    expect(actionAudience({ inviteOnly: true, historyPublicToSubscribers: true }, candidates)).toEqual([1, 2, 5]);
  });

  it('is the subscribers and the non-guests holding a row of a public channel', () => {
    expect(actionAudience({ inviteOnly: false, historyPublicToSubscribers: true }, candidates)).toEqual([1, 2, 3, 5]);
  });

  it('lists each user once, ascending', () => {
    expect(actionAudience(null, [c(7, { hasRow: true }), c(2, { hasRow: true }), c(7, { hasRow: true })])).toEqual([2, 7]);
  });
});
