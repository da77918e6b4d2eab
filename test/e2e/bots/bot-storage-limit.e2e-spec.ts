import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// Zulip's test_storage_limit, with USER_STATE_SIZE_LIMIT lowered to 100 as there.
let t: TestApp;
let bot: Account;
let bot2: Account;

beforeAll(async () => {
  t = await TestApp.start({ USER_STATE_SIZE_LIMIT: '100' });
  const owner = await t.createUser({ fullName: 'Owner of bots' });
  bot = await t.createBot(owner, 'embedded1');
  bot2 = await t.createBot(owner, 'embedded2');
});
afterAll(() => t.close());

const put = (as: Account, storage: unknown) => t.call('put', 'bot_storage', { as, form: { storage } });
const storageOf = async (as: Account) => (await t.get('bot_storage', { as })).body.storage as Record<string, string>;

describe('USER_STATE_SIZE_LIMIT', () => {
  it('fills up to the limit, then refuses with by how much a request exceeds it; each bot has its own', async () => {
    const key = 'capacity-filling entry';
    expectSuccess(await put(bot, { [key]: 'x'.repeat(100 - key.length) }));
    expectError(await put(bot, { 'too much data': 'a few bits too long' }), 400, 'Request exceeds storage limit by 32 characters. The limit is 100 characters.');
    expect(Object.keys(await storageOf(bot))).toEqual([key]);
    expectSuccess(await put(bot2, { 'another big entry': 'x'.repeat(60) }));
    expectSuccess(await put(bot2, { 'normal entry': 'abcd' }));
  });

  it('counts what a replaced key held as freed, and a refused request writes none of its entries', async () => {
    const key = 'capacity-filling entry';
    expectSuccess(await put(bot, { [key]: 'y'.repeat(100 - key.length) }));
    expectError(await put(bot, { [key]: 'short', other: 'z'.repeat(80) }), 400, 'Request exceeds storage limit by 12 characters. The limit is 100 characters.');
    expect(await storageOf(bot)).toEqual({ [key]: 'y'.repeat(100 - key.length) });
    expectSuccess(await put(bot, { [key]: 'short', other: 'z'.repeat(60) }));
    expect(await storageOf(bot)).toEqual({ [key]: 'short', other: 'z'.repeat(60) });
  });

  it('counts characters, not bytes', async () => {
    expectSuccess(await t.delete('bot_storage', { as: bot }));
    expectSuccess(await put(bot, { '😀': '☃'.repeat(99) }));
    expectError(await put(bot, { '😀': '☃'.repeat(100) }), 400, 'Request exceeds storage limit by 1 characters. The limit is 100 characters.');
  });
});
