import type { Actor } from './actor.js';
import { assertCanManageBot, assertCanOwnBot } from './bots.js';
import { Role } from './role.js';
import type { UserState } from './user.js';

const actor = (role: Role, userId = 10): Actor => ({ userId, realmId: 1, email: 'a@x', role, isBot: false, botType: null });
const bot = (o: Partial<UserState> = {}): UserState => ({
  id: 50,
  realmId: 1,
  email: 'b-bot@x',
  deliveryEmail: 'b-bot@x',
  fullName: 'B',
  role: Role.MEMBER,
  isActive: true,
  isBot: true,
  botType: 1,
  botOwnerId: 10,
  isSystemBot: false,
  dateJoined: new Date(0),
  ...o,
});

describe('assertCanManageBot (Zulip’s access_bot_by_id)', () => {
  it.each([
    ['missing', null],
    ['another organization’s bot', bot({ realmId: 2 })],
    ['a human', bot({ isBot: false, botOwnerId: null })],
    ['a system bot', bot({ isSystemBot: true, botOwnerId: null })],
  ])('%s reads "No such bot", even for an administrator', (_what, target) => {
    expect(() => assertCanManageBot(actor(Role.ADMINISTRATOR), target)).toThrow('No such bot');
  });

  it('lets the owner and administrators manage it, deactivated too', () => {
    expect(() => assertCanManageBot(actor(Role.MEMBER), bot({ isActive: false }))).not.toThrow();
    expect(() => assertCanManageBot(actor(Role.ADMINISTRATOR, 99), bot())).not.toThrow();
    expect(() => assertCanManageBot(actor(Role.OWNER, 99), bot())).not.toThrow();
  });

  it('refuses other members and moderators', () => {
    expect(() => assertCanManageBot(actor(Role.MEMBER, 11), bot())).toThrow('Insufficient permission');
    expect(() => assertCanManageBot(actor(Role.MODERATOR, 11), bot())).toThrow('Insufficient permission');
  });
});

describe('assertCanOwnBot', () => {
  it('names Zulip’s three refusals', () => {
    expect(() => assertCanOwnBot(null)).toThrow('Failed to change owner, no such user');
    expect(() => assertCanOwnBot({ isActive: false, isBot: false })).toThrow('Failed to change owner, user is deactivated');
    expect(() => assertCanOwnBot({ isActive: true, isBot: true })).toThrow("Failed to change owner, bots can't own other bots");
    expect(() => assertCanOwnBot({ isActive: true, isBot: false })).not.toThrow();
  });
});
