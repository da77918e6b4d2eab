import type { Actor } from './actor.js';
import { Role } from './role.js';
import { assertCanDeactivateSelf } from './self-deactivation.policy.js';
import { directSystemGroupsFor, isFullMember } from './system-groups.js';
import { assertCanAccessUser, User, type UserState } from './user.js';
import { apiKeyFromRandomBytes, isWellFormedApiKey } from './api-key.js';

const actor = (role: Role, userId = 1): Actor => ({ userId, realmId: 1, email: 'a@x.com', role, isBot: false, botType: null });
const state = (o: Partial<UserState> = {}): UserState => ({
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

describe('role changes', () => {
  it('needs an owner to grant or remove ownership', () => {
    const u = User.restore(state());
    expect(() => u.changeRole(actor(Role.ADMINISTRATOR), Role.OWNER, 1)).toThrow('Must be an organization owner');
    u.changeRole(actor(Role.OWNER), Role.OWNER, 1);
    expect(u.role).toBe(Role.OWNER);
    expect(u.pullEvents()).toEqual([{ type: 'role_changed', userId: 9, role: Role.OWNER, previous: Role.MEMBER }]);
  });
  it('needs an administrator for other changes', () => {
    expect(() => User.restore(state()).changeRole(actor(Role.MODERATOR), Role.GUEST, 1)).toThrow(
      'Must be an organization administrator',
    );
  });
  it('keeps the last owner', () => {
    const u = User.restore(state({ role: Role.OWNER }));
    expect(() => u.changeRole(actor(Role.OWNER), Role.MEMBER, 1)).toThrow(
      'The owner permission cannot be removed from the only organization owner.',
    );
    u.changeRole(actor(Role.OWNER), Role.MEMBER, 2);
    expect(u.role).toBe(Role.MEMBER);
  });
  it('treats an unchanged role as a no-op, even for non-admins', () => {
    const u = User.restore(state());
    u.changeRole(actor(Role.MEMBER), Role.MEMBER, 1);
    expect(u.pullEvents()).toEqual([]);
  });
});

describe('deactivation', () => {
  it('protects owners and the last owner', () => {
    const owner = User.restore(state({ role: Role.OWNER }));
    expect(() => owner.deactivateByAdmin(actor(Role.ADMINISTRATOR), 2)).toThrow('Must be an organization owner');
    expect(() => owner.deactivateByAdmin(actor(Role.OWNER), 1)).toThrow('Cannot deactivate the only organization owner');
    owner.deactivateByAdmin(actor(Role.OWNER), 2);
    expect(owner.isActive).toBe(false);
  });
  it('refuses to let the last user or owner leave', () => {
    expect(() => assertCanDeactivateSelf(Role.MEMBER, 1, 1)).toThrow('Cannot deactivate the only user.');
    expect(() => assertCanDeactivateSelf(Role.OWNER, 3, 1)).toThrow('Cannot deactivate the only organization owner.');
    assertCanDeactivateSelf(Role.OWNER, 3, 2);
  });
});

describe('recorded events', () => {
  it('records a rename, and nothing for the same name', () => {
    const u = User.restore(state());
    u.rename('U');
    expect(u.pullEvents()).toEqual([]);
    u.rename('Ulla');
    expect(u.pullEvents()).toEqual([{ type: 'full_name_changed', userId: 9, fullName: 'Ulla' }]);
  });
  it('records changes in the order they happen', () => {
    const u = User.restore(state());
    u.changeRole(actor(Role.OWNER), Role.MODERATOR, 1);
    u.rename('Ulla');
    expect(u.pullEvents().map((e) => e.type)).toEqual(['role_changed', 'full_name_changed']);
  });
  it('records a deactivation once', () => {
    const u = User.restore(state());
    u.deactivateByAdmin(actor(Role.ADMINISTRATOR), 1);
    u.deactivate();
    expect(u.pullEvents()).toEqual([{ type: 'deactivated', userId: 9 }]);
  });
  it('records a reactivation, even of an active user (Zulip announces it either way)', () => {
    const u = User.restore(state({ isActive: false }));
    u.reactivate();
    expect(u.isActive).toBe(true);
    expect(u.pullEvents()).toEqual([{ type: 'reactivated', userId: 9 }]);
    u.reactivate();
    expect(u.pullEvents()).toEqual([{ type: 'reactivated', userId: 9 }]);
  });
});

describe('access for administration', () => {
  const o = { allowBots: false, allowDeactivated: false, forAdmin: true };
  it.each([
    [null, o, 'No such user'],
    [state({ realmId: 2 }), o, 'No such user'],
    [state({ isBot: true }), o, 'No such user'],
    [state({ isActive: false }), o, 'User is deactivated'],
  ])('rejects %#', (target, opts, msg) => {
    expect(() => assertCanAccessUser(actor(Role.OWNER), target, opts)).toThrow(msg);
  });
  it('lets bot owners administer their bots, and nobody else below administrator', () => {
    const bot = state({ isBot: true, botOwnerId: 5 });
    const opts = { ...o, allowBots: true };
    expect(assertCanAccessUser(actor(Role.MEMBER, 5), bot, opts)).toBe(bot);
    expect(() => assertCanAccessUser(actor(Role.MEMBER, 6), bot, opts)).toThrow('Insufficient permission');
    expect(() => assertCanAccessUser(actor(Role.MODERATOR), state(), o)).toThrow('Insufficient permission');
  });
});

describe('system groups', () => {
  it('makes full members direct members of role:fullmembers too', () => {
    expect(directSystemGroupsFor(Role.MEMBER, true)).toEqual(['role:members', 'role:fullmembers']);
    expect(directSystemGroupsFor(Role.MEMBER, false)).toEqual(['role:members']);
    expect(directSystemGroupsFor(Role.GUEST, false)).toEqual(['role:everyone']);
    expect(directSystemGroupsFor(Role.OWNER, true)).toEqual(['role:owners']);
  });
  it('counts the waiting period in days', () => {
    const joined = new Date('2026-01-01T00:00:00Z');
    expect(isFullMember(Role.MEMBER, joined, 3, new Date('2026-01-03T23:00:00Z'))).toBe(false);
    expect(isFullMember(Role.MEMBER, joined, 3, new Date('2026-01-04T00:00:00Z'))).toBe(true);
    expect(isFullMember(Role.GUEST, joined, 0, joined)).toBe(false);
  });
});

describe('API keys', () => {
  it('are 32 alphanumerics', () => {
    const key = apiKeyFromRandomBytes(new Uint8Array(64).map((_, i) => (i * 37) % 256));
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(key.slice(1))).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(1)}-`)).toBe(false);
  });
});
