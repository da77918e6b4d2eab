import { assertCanCreateBot } from './bot-creation.policy.js';

describe('bot creation', () => {
  it('lets can_create_bots_group create generic, webhook and outgoing bots', () => {
    for (const t of [1, 2, 3]) assertCanCreateBot(t, true, false, false);
    expect(() => assertCanCreateBot(4, true, false, false)).toThrow('Invalid bot type');
    expect(() => assertCanCreateBot(9, true, false, false)).toThrow('Invalid bot type');
  });
  it('lets write-only bot creators create incoming webhooks only', () => {
    assertCanCreateBot(2, false, true, false);
    expect(() => assertCanCreateBot(1, false, true, false)).toThrow('Insufficient permission');
    expect(() => assertCanCreateBot(2, false, false, false)).toThrow('Insufficient permission');
  });
});
