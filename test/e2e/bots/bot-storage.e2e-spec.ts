import { DataSource } from 'typeorm';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let member: Account;
let admin: Account;
let guest: Account;
let bot: Account;
let bot2: Account;
let otherBot: Account;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  member = await t.createUser({ fullName: 'Member' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(member, 'embedded1');
  bot2 = await t.createBot(member, 'embedded2');
  const otherOwner = await t.createOrganization('other');
  const b = await t.post('bots', { as: otherOwner, form: { full_name: 'Other bot', short_name: 'embedded1', bot_type: 1 } });
  expectSuccess(b);
  otherBot = { id: b.body.user_id, email: 'embedded1-bot@other.chat.example.com', apiKey: b.body.api_key, host: otherOwner.host };
});
afterAll(() => t.close());

const URL = 'bot_storage';
const get = (as: Account, keys?: unknown) => t.get(URL, { as, query: keys === undefined ? undefined : { keys } });
const put = (as: Account, storage: unknown) => t.call('put', URL, { as, form: { storage } });
const del = (as: Account, keys?: unknown) => t.delete(URL, { as, form: keys === undefined ? undefined : { keys } });
const storageOf = async (as: Account) => {
  const res = await get(as);
  expectSuccess(res);
  return res.body.storage as Record<string, string>;
};
const rows = async () => (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM bot_storage`))[0].n as number;

describe('only bots (Zulip’s test_bot_storage_restrictions)', () => {
  it.each([
    ['owner', () => t.owner],
    ['admin', () => admin],
    ['member', () => member],
    ['guest', () => guest],
  ])('%s gets "Must be a bot user" on every method, before the parameters, and nothing is written', async (_who, as) => {
    const before = await rows();
    expectError(await put(as(), '{}'), 400, 'Must be a bot user');
    expectError(await put(as(), { a: 'b' }), 400, 'Must be a bot user');
    expectError(await t.call('put', URL, { as: as() }), 400, 'Must be a bot user');
    expectError(await get(as()), 400, 'Must be a bot user');
    expectError(await get(as(), 'not json'), 400, 'Must be a bot user');
    expectError(await del(as()), 400, 'Must be a bot user');
    expect(await rows()).toBe(before);
  });

  it('needs authentication', async () => {
    expectError(await t.get(URL, { as: null }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });
});

describe('GET, PUT and DELETE /bot_storage (Zulip’s test_bot_storage_endpoint)', () => {
  afterEach(async () => {
    for (const b of [bot, bot2, otherBot]) expectSuccess(await del(b));
  });

  it('stores, reads, updates and removes entries', async () => {
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    const res = await put(bot, initial);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });

    const some = await get(bot, ['key 1', 'key 3']);
    expect(some.status).toBe(200);
    expect(some.body).toEqual({ result: 'success', msg: '', storage: { 'key 3': 'value 3', 'key 1': 'value 1' } });
    expect(await storageOf(bot)).toEqual(initial);

    expectSuccess(await put(bot, { 'key 1': 'new value', 'key 4': 'value 4' }));
    const updated: Record<string, string> = { ...initial, 'key 1': 'new value', 'key 4': 'value 4' };
    expect(await storageOf(bot)).toEqual(updated);

    expectError(await t.get(URL, { as: bot, query: { keys: 'This is a list, but should be a serialized string.' } }), 400, 'keys is not valid JSON');
    expectError(await get(bot, ['key 1', 'nonexistent key']), 400, 'Key does not exist.');
    expectError(await put(bot, { foo: [1, 2, 3] }), 400, 'storage["foo"] is not a string');

    const removed = await del(bot, ['key 1', 'key 2']);
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    delete updated['key 1'];
    delete updated['key 2'];
    expect(await storageOf(bot)).toEqual(updated);

    expectError(await del(bot, ['key 3', 'nonexistent key']), 400, 'Key does not exist.');
    expect(await storageOf(bot)).toEqual(updated);

    expectSuccess(await del(bot));
    expect(await storageOf(bot)).toEqual({});
  });

  it('reads `keys: null` as every key and `keys: []` as none', async () => {
    expectSuccess(await put(bot, { a: '1', b: '2' }));
    expect((await get(bot, null)).body.storage).toEqual({ a: '1', b: '2' });
    expect((await get(bot, [])).body.storage).toEqual({});
    expectSuccess(await del(bot, []));
    expect(await storageOf(bot)).toEqual({ a: '1', b: '2' });
    expectSuccess(await del(bot, null));
    expect(await storageOf(bot)).toEqual({});
  });

  it('refuses a key named twice on DELETE, as Zulip counts rows against keys, and removes nothing', async () => {
    expectSuccess(await put(bot, { a: '1' }));
    expectError(await del(bot, ['a', 'a']), 400, 'Key does not exist.');
    expect(await storageOf(bot)).toEqual({ a: '1' });
    expect((await get(bot, ['a', 'a'])).body.storage).toEqual({ a: '1' });
    expectSuccess(await del(bot));
  });

  it('keeps any string as a key: empty, Unicode, object-like names, very long ones', async () => {
    const long = 'k'.repeat(5000);
    // Written as JSON text: in an object literal `__proto__` would not be a key.
    const json = `{"": "empty", "☃ 😀": "snow", "__proto__": "proto", "constructor": "c", "1": "one", "${long}": "long"}`;
    const keys = ['', '☃ 😀', '__proto__', 'constructor', '1', long];
    expectSuccess(await put(bot, json));
    const all = await get(bot);
    expect(all.text).toContain('"__proto__":"proto"');
    expect(Object.keys(all.body.storage).sort()).toEqual([...keys].sort());
    const some = await get(bot, ['__proto__', long]);
    expect(some.text).toContain('"__proto__":"proto"');
    expect(some.body.storage[long]).toBe('long');
    expectSuccess(await del(bot, keys));
    expect(await storageOf(bot)).toEqual({});
  });

  it('keeps each bot’s storage, and each organization’s, apart', async () => {
    expectSuccess(await put(bot, { 'some key': 'a new value' }));
    expectError(await get(bot2, ['some key']), 400, 'Key does not exist.');
    expectSuccess(await put(bot2, { 'some key': 'yet another value' }));
    expectSuccess(await put(otherBot, { 'some key': 'elsewhere' }));
    expect(await storageOf(bot)).toEqual({ 'some key': 'a new value' });
    expect(await storageOf(bot2)).toEqual({ 'some key': 'yet another value' });
    expect(await storageOf(otherBot)).toEqual({ 'some key': 'elsewhere' });
    expectSuccess(await del(bot2));
    expectError(await del(otherBot, ['other key']), 400, 'Key does not exist.');
    expect(await storageOf(bot)).toEqual({ 'some key': 'a new value' });
    expect(await storageOf(otherBot)).toEqual({ 'some key': 'elsewhere' });
    expectSuccess(await del(bot));
    expectSuccess(await del(otherBot));
  });

  it.each<[string, Record<string, unknown>, string, string?, Record<string, unknown>?]>([
    ['put', {}, "Missing 'storage' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'storage' }],
    ['put', { storage: 'not json' }, 'storage is not valid JSON'],
    ['put', { storage: '[["a", "b"]]' }, 'storage is not a dict'],
    ['put', { storage: '"a"' }, 'storage is not a dict'],
    ['put', { storage: '5.5' }, 'storage is not a dict'],
    ['put', { storage: { ok: 'fine', n: 5 } }, 'storage["n"] is not a string'],
    ['put', { storage: { ok: 'fine', n: null } }, 'storage["n"] is not a string'],
    ['get', { keys: '{"a": 1}' }, 'keys is not a list'],
    ['get', { keys: ['a', 5] }, 'keys[1] is not a string'],
    ['delete', { keys: 'nope' }, 'keys is not valid JSON'],
    ['delete', { keys: [1] }, 'keys[0] is not a string'],
  ])('%s %j: Zulip’s error, nothing changed', async (method, params, msg, code = 'BAD_REQUEST', extra = {}) => {
    expectSuccess(await put(bot, { keep: 'me' }));
    const options = method === 'get' ? { as: bot, query: params } : { as: bot, form: params };
    expectError(await t.call(method as 'get' | 'put' | 'delete', URL, options), 400, msg, code, extra);
    expect(await storageOf(bot)).toEqual({ keep: 'me' });
    expectSuccess(await del(bot));
  });

  it('reports parameters it does not know', async () => {
    expectSuccess(await t.call('put', URL, { as: bot, form: { storage: { a: 'b' }, foo: 1 } }), { ignored_parameters_unsupported: ['foo'] });
    expectSuccess(await del(bot));
  });

  it('is not for incoming webhook bots', async () => {
    const hook = await t.createBot(member, 'hook', 2);
    expectError(await get(hook), 401, 'This API is not available to incoming webhook bots.', 'UNAUTHORIZED');
  });
});
