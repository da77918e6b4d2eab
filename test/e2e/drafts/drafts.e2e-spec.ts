import { createChannels } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let other: Account;
let guest: Account;
let gone: Account;
let ch: Record<string, number>;
const NOW = 1_750_000_000;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000 + 250);
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  moderator = await t.createUser({ role: 300, fullName: 'Moderator' });
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  gone = await t.createUser({ fullName: 'Gone' });
  expectSuccess(await t.delete(`users/${gone.id}`));
  ch = await createChannels(t, ['general', 'old']);
  Object.assign(ch, await createChannels(t, ['secret'], { form: { invite_only: true } }));
  Object.assign(ch, await createChannels(t, ['guests'], { form: { principals: [guest.id] } }));
  expectSuccess(await t.delete(`streams/${ch.old}`));
});
afterAll(() => t.close());

type DraftBody = { type: string; to: number[]; topic: string; content: string; timestamp?: number | null };
const draft = (o: Partial<DraftBody> = {}): DraftBody => ({ type: 'stream', to: [ch.general], topic: 'lunch', content: 'hello', ...o });
const create = (as: Account, drafts: unknown) => t.post('drafts', { as, form: { drafts } });
const list = async (as: Account) => (await t.get('drafts', { as })).body;

describe('creating and listing drafts', () => {
  it('stores a list of drafts and returns their ids in submission order', async () => {
    const res = await create(member, [
      draft({ timestamp: NOW + 30 }),
      draft({ type: 'private', to: [other.id], topic: 'ignored', content: '  dm  ', timestamp: NOW + 10.9 }),
      draft({ type: '', to: [ch.general], topic: 'x', content: 'nowhere' }),
    ]);
    expectSuccess(res);
    expect(res.body.ids).toHaveLength(3);
    expect(res.body.ids).toEqual([...res.body.ids].sort((a: number, b: number) => a - b));
    const [a, b, c] = res.body.ids;
    expect(await list(member)).toEqual({
      result: 'success',
      msg: '',
      count: 3,
      drafts: [
        { id: b, type: 'private', to: [other.id], topic: '', content: 'dm', timestamp: NOW + 10 },
        { id: c, type: '', to: [], topic: '', content: 'nowhere', timestamp: NOW },
        { id: a, type: 'stream', to: [ch.general], topic: 'lunch', content: 'hello', timestamp: NOW + 30 },
      ].sort((x, y) => x.timestamp - y.timestamp),
    });
  });

  it('shows direct drafts as clients see the conversation', async () => {
    const res = await create(other, [
      draft({ type: 'private', to: [other.id], timestamp: 1 }),
      draft({ type: 'private', to: [member.id, other.id], timestamp: 2 }),
      draft({ type: 'private', to: [guest.id, member.id, other.id, member.id], timestamp: 3 }),
      draft({ type: 'private', to: [], timestamp: 4 }),
    ]);
    expectSuccess(res);
    const drafts = (await list(other)).drafts;
    expect(drafts.map((d: { type: string; to: number[] }) => [d.type, d.to])).toEqual([
      ['private', [other.id]],
      ['private', [member.id]],
      ['private', [member.id, guest.id].sort((x, y) => x - y)],
      ['', []],
    ]);
  });

  it('truncates long content and topics, strips content, keeps microseconds in the order', async () => {
    const res = await create(admin, [
      draft({ content: `\n  ${'x'.repeat(10_005)}  \n`, topic: 't'.repeat(70), timestamp: 100.5 }),
      draft({ timestamp: 100.25 }),
    ]);
    expectSuccess(res);
    const [long, early] = (await list(admin)).drafts.sort((x: { id: number }, y: { id: number }) => x.id - y.id);
    expect(long.content).toHaveLength(10_000);
    expect(long.content.endsWith('\n[message truncated]')).toBe(true);
    expect(long.topic).toBe(`${'t'.repeat(57)}...`);
    expect([long.timestamp, early.timestamp]).toEqual([100, 100]);
    expect((await list(admin)).drafts.map((d: { id: number }) => d.id)).toEqual([early.id, long.id]);
  });

  it('accepts an empty list, or no list at all', async () => {
    expectSuccess(await create(moderator, []), { ids: [] });
    expectSuccess(await t.post('drafts', { as: moderator }), { ids: [] });
    expect(await list(moderator)).toMatchObject({ count: 0, drafts: [] });
  });

  it('works for every kind of account, bots included', async () => {
    const bot = await t.createBot(member, 'drafter');
    for (const as of [t.owner, moderator, guest, bot]) {
      expectSuccess(await create(as, [draft({ type: 'private', to: [member.id] })]));
    }
    expectSuccess(await create(guest, [draft({ to: [ch.guests] })]));
    expect((await list(guest)).count).toBe(2);
    expect((await list(bot)).drafts[0]).toMatchObject({ type: 'private', to: [member.id] });
  });

  it('sees only one’s own drafts', async () => {
    const mine = (await list(member)).drafts.map((d: { id: number }) => d.id);
    const theirs = (await list(other)).drafts.map((d: { id: number }) => d.id);
    expect(mine.filter((id: number) => theirs.includes(id))).toEqual([]);
  });
});

describe('draft validation', () => {
  const bad = (): [string, () => unknown, string][] => [
    ['not a list', () => ({ a: 1 }), 'drafts is not a list'],
    ['invalid JSON', () => '[{', 'drafts is not valid JSON'],
    ['not an object', () => [5], 'Invalid drafts[0]: Input should be a valid dictionary or instance of DraftData'],
    ['missing type', () => [{ to: [], topic: '', content: 'x' }], 'drafts[0]["type"] field is missing: Field required'],
    ['missing topic', () => [{ type: '', to: [], content: 'x' }], 'drafts[0]["topic"] field is missing: Field required'],
    ['unknown type', () => [draft({ type: 'channel' })], 'Invalid drafts[0]["type"]'],
    ['direct alias', () => [draft({ type: 'direct' })], 'Invalid drafts[0]["type"]'],
    ['to not a list', () => [{ ...draft(), to: 5 }], 'drafts[0]["to"] is not a list'],
    ['to of strings', () => [{ ...draft(), to: ['a'] }], 'drafts[0]["to"][0] is not an integer'],
    ['topic not a string', () => [{ ...draft(), topic: 5 }], 'drafts[0]["topic"] is not a string'],
    ['blank content', () => [draft({ content: ' \n ' })], 'drafts[0]["content"] cannot be blank'],
    ['timestamp string', () => [{ ...draft(), timestamp: '5' }], 'drafts[0]["timestamp"]["int"] is not an integer'],
    ['unexpected key', () => [{ ...draft(), id: 5 }], 'Argument "id" at drafts[0]["id"] is unexpected'],
    ['second draft', () => [draft(), draft({ content: '' })], 'drafts[1]["content"] cannot be blank'],
    ['NUL in content', () => [draft({ content: 'a\u0000b' })], 'Message must not contain null bytes'],
    ['negative timestamp', () => [draft({ timestamp: -1 })], 'Timestamp must not be negative.'],
    ['NUL in topic', () => [draft({ topic: 'a\u0000' })], 'Topic must not contain null bytes'],
    ['no channel', () => [draft({ to: [] })], 'Must specify exactly 1 channel ID for channel messages'],
    ['two channels', () => [draft({ to: [ch.general, ch.secret] })], 'Must specify exactly 1 channel ID for channel messages'],
    ['unknown channel', () => [draft({ to: [99_999] })], 'Invalid channel ID'],
    ['out-of-range channel', () => [draft({ to: [99_999_999_999] })], 'Invalid channel ID'],
    ['out-of-range user', () => [draft({ type: 'private', to: [99_999_999_999] })], 'Invalid user ID 99999999999'],
    ['private channel', () => [draft({ to: [ch.secret] })], 'Invalid channel ID'],
    ['archived channel', () => [draft({ to: [ch.old] })], 'Invalid channel ID'],
    ['unknown user', () => [draft({ type: 'private', to: [other.id, 99_998, 99_997] })], 'Invalid user ID 99997'],
    ['valid then invalid', () => [draft(), draft({ to: [ch.secret] })], 'Invalid channel ID'],
  ];

  it.each(bad())('refuses %s, storing nothing', async (_name, drafts, msg) => {
    const before = (await list(other)).count;
    expectError(await create(other, drafts()), 400, msg);
    expect((await list(other)).count).toBe(before);
  });

  it('refuses deactivated recipients', async () => {
    expectError(await create(other, [draft({ type: 'private', to: [gone.id, member.id] })]), 400, `'${gone.email}' is no longer using Zulip.`);
  });

  it('lets subscribers of a private channel and guests in their channels draft there', async () => {
    expectSuccess(await create(t.owner, [draft({ to: [ch.secret] })]));
    expectError(await create(admin, [draft({ to: [ch.secret] })]), 400, 'Invalid channel ID');
    // Not 'general': the guest joined that initial default channel on signup.
    const { lobby } = await createChannels(t, ['lobby']);
    expectError(await create(guest, [draft({ to: [lobby] })]), 400, 'Invalid channel ID');
  });
});

describe('editing drafts', () => {
  let id: number;
  beforeAll(async () => {
    id = (await create(member, [draft({ content: 'to edit', timestamp: 5 })])).body.ids[0];
  });
  const find = async () => (await list(member)).drafts.find((d: { id: number }) => d.id === id);

  it('replaces every field, filling the timestamp with now', async () => {
    expectSuccess(await t.patch(`drafts/${id}`, { as: member, form: { draft: draft({ type: 'private', to: [other.id], topic: 'x', content: 'edited' }) } }));
    expect(await find()).toEqual({ id, type: 'private', to: [other.id], topic: '', content: 'edited', timestamp: NOW });
    expectSuccess(await t.patch(`drafts/${id}`, { as: member, query: { draft: draft({ content: 'via query', timestamp: 7.7 }) } }));
    expect(await find()).toEqual({ id, type: 'stream', to: [ch.general], topic: 'lunch', content: 'via query', timestamp: 7 });
  });

  it('answers 404 for missing drafts and other users’ drafts', async () => {
    expectError(await t.patch(`drafts/${id}`, { as: other, form: { draft: draft() } }), 404, 'Draft does not exist');
    expectError(await t.patch('drafts/999999', { as: member, form: { draft: draft() } }), 404, 'Draft does not exist');
    expect((await find()).content).toBe('via query');
  });

  it('checks the structure first, then existence, then the content', async () => {
    expectError(await t.patch('drafts/999999', { as: member, form: { draft: { ...draft(), to: 'x' } } }), 400, 'draft["to"] is not a list');
    expectError(await t.patch('drafts/999999', { as: member, form: { draft: draft({ content: 'a\u0000' }) } }), 404, 'Draft does not exist');
    expectError(await t.patch(`drafts/${id}`, { as: member, form: { draft: draft({ to: [ch.secret] }) } }), 400, 'Invalid channel ID');
    expectError(await t.patch(`drafts/${id}`, { as: member, form: { draft: [draft()] } }), 400, 'Invalid draft: Input should be a valid dictionary or instance of DraftData');
    expectError(await t.patch(`drafts/${id}`, { as: member }), 400, "Missing 'draft' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'draft' });
    expect((await find()).content).toBe('via query');
  });

  it('answers an unknown route for non-numeric ids', async () => {
    expect((await t.patch('drafts/abc', { as: member, form: { draft: draft() } })).status).toBe(404);
  });
});

describe('deleting drafts', () => {
  it('deletes one’s own draft once', async () => {
    const [id] = (await create(member, [draft({ content: 'bye' })])).body.ids;
    expectError(await t.delete(`drafts/${id}`, { as: other }), 404, 'Draft does not exist');
    expectSuccess(await t.delete(`drafts/${id}`, { as: member }));
    expect((await list(member)).drafts.some((d: { id: number }) => d.id === id)).toBe(false);
    expectError(await t.delete(`drafts/${id}`, { as: member }), 404, 'Draft does not exist');
  });
});

describe('organizations', () => {
  it('keeps drafts, channels and users of other organizations apart', async () => {
    const foreign = await t.createOrganization('drafts-elsewhere');
    const [id] = (await create(member, [draft({ content: 'home' })])).body.ids;
    expect(await list(foreign)).toMatchObject({ count: 0, drafts: [] });
    expectError(await t.patch(`drafts/${id}`, { as: foreign, form: { draft: draft({ to: [] , type: ''}) } }), 404, 'Draft does not exist');
    expectError(await t.delete(`drafts/${id}`, { as: foreign }), 404, 'Draft does not exist');
    expectError(await create(foreign, [draft({ to: [ch.general] })]), 400, 'Invalid channel ID');
    expectError(await create(foreign, [draft({ type: 'private', to: [member.id] })]), 400, `Invalid user ID ${member.id}`);
    expectSuccess(await create(foreign, [draft({ type: 'private', to: [foreign.id] })]));
    expect((await list(foreign)).drafts).toMatchObject([{ type: 'private', to: [foreign.id] }]);
  });
});
