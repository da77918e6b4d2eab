import type { Actor } from './actor.js';
import { assertCanMute, assertCanUnmute, assertNotMutingSelf, mutedUserEntry } from './muted-users.js';
import { Role } from './role.js';
import type { UserState } from './user.js';

const actor: Actor = { userId: 1, realmId: 1, email: 'a@x.com', role: Role.MEMBER, isBot: false, botType: null };
const user = (o: Partial<UserState> = {}): UserState => ({
  id: 9,
  realmId: 1,
  email: 'u@x.com',
  deliveryEmail: 'u@x.com',
  fullName: 'U',
  role: Role.MEMBER,
  isActive: true,
  isBot: false,
  botType: null,
  botOwnerId: null,
  isSystemBot: false,
  dateJoined: new Date('2026-01-01'),
  ...o,
});

describe('muting users', () => {
  it('refuses muting oneself', () => {
    expect(() => assertNotMutingSelf(actor, 1)).toThrow('Cannot mute self');
    expect(() => assertNotMutingSelf(actor, 9)).not.toThrow();
  });

  it.each([assertCanMute, assertCanUnmute])('takes members, bots and deactivated users of the organization (%o)', (check) => {
    expect(check(actor, user()).id).toBe(9);
    expect(check(actor, user({ isBot: true, botType: 1 })).id).toBe(9);
    expect(check(actor, user({ isActive: false })).id).toBe(9);
    expect(check(actor, user({ isSystemBot: true, isBot: true })).id).toBe(9);
  });

  it.each([assertCanMute, assertCanUnmute])('says No such user for unknown and other organizations’ users (%o)', (check) => {
    expect(() => check(actor, null)).toThrow('No such user');
    expect(() => check(actor, user({ realmId: 2 }))).toThrow('No such user');
  });

  it('lists entries with whole-second timestamps', () => {
    expect(mutedUserEntry(9, new Date('2021-01-01T00:00:00.999Z'))).toEqual({ id: 9, timestamp: 1609459200 });
  });
});
