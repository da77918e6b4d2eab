import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let member: Account;
let other: Account;
let guest: Account;
const NOW = 1_760_000_000;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000 + 999);
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
});
afterAll(() => t.close());

const create = (as: Account, form: Record<string, unknown>) => t.post('saved_snippets', { as, form });
const list = async (as: Account) => (await t.get('saved_snippets', { as })).body.saved_snippets;

describe('saved snippets', () => {
  it('creates stripped snippets and lists one’s own by id', async () => {
    const a = await create(member, { title: '  Greeting ', content: '\n Hello there!\n' });
    expectSuccess(a);
    t.clock.advance(60);
    const b = await create(member, { title: 'Bye', content: 'See you' });
    expect(b.body.saved_snippet_id).toBeGreaterThan(a.body.saved_snippet_id);
    expect(await t.get('saved_snippets', { as: member }).then((r) => r.body)).toEqual({
      result: 'success',
      msg: '',
      saved_snippets: [
        { id: a.body.saved_snippet_id, title: 'Greeting', content: 'Hello there!', date_created: NOW },
        { id: b.body.saved_snippet_id, title: 'Bye', content: 'See you', date_created: NOW + 60 },
      ],
    });
    expect(await list(other)).toEqual([]);
  });

  it('is available to guests and bots too', async () => {
    const bot = await t.createBot(member, 'snippets');
    for (const as of [guest, bot, t.owner]) {
      expectSuccess(await create(as, { title: 't', content: 'c' }));
      expect(await list(as)).toHaveLength(1);
    }
  });

  it.each([
    [{ title: 't' }, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' }],
    [{}, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' }],
    [{ content: 'c' }, "Missing 'title' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'title' }],
    [{ title: '   ', content: 'c' }, 'title cannot be blank', 'BAD_REQUEST', {}],
    [{ title: '', content: 'c' }, 'title cannot be blank', 'BAD_REQUEST', {}],
    [{ title: 't', content: ' \n\t ' }, 'content cannot be blank', 'BAD_REQUEST', {}],
    [{ title: '', content: '' }, 'content cannot be blank', 'BAD_REQUEST', {}],
    [{ title: 'x'.repeat(61), content: 'c' }, 'title is too long (limit: 60 characters)', 'BAD_REQUEST', {}],
    [{ title: 't', content: 'x'.repeat(10_001) }, 'content is too long (limit: 10000 characters)', 'BAD_REQUEST', {}],
  ])('refuses %j', async (form, msg, code, extra) => {
    const before = (await list(other)).length;
    expectError(await create(other, form), 400, msg, code, extra);
    expect(await list(other)).toHaveLength(before);
  });

  it('measures limits after stripping, in code points', async () => {
    expectSuccess(await create(other, { title: ` ${'😀'.repeat(60)} `, content: 'c' }));
    expect((await list(other)).at(-1).title).toBe('😀'.repeat(60));
  });

  it('edits the title, the content or both; nothing given changes nothing', async () => {
    const id = (await create(member, { title: 'Old', content: 'Old text' })).body.saved_snippet_id;
    const find = async () => (await list(member)).find((s: { id: number }) => s.id === id);
    expectSuccess(await t.patch(`saved_snippets/${id}`, { as: member, form: { title: ' New ' } }));
    expect(await find()).toMatchObject({ title: 'New', content: 'Old text' });
    expectSuccess(await t.patch(`saved_snippets/${id}`, { as: member, query: { content: 'New text' } }));
    expect(await find()).toMatchObject({ title: 'New', content: 'New text' });
    expectSuccess(await t.patch(`saved_snippets/${id}`, { as: member, form: { title: 'T', content: 'C' } }));
    expect(await find()).toMatchObject({ title: 'T', content: 'C', date_created: expect.any(Number) });
    expectSuccess(await t.patch(`saved_snippets/${id}`, { as: member }));
    expectError(await t.patch(`saved_snippets/${id}`, { as: member, form: { title: ' ' } }), 400, 'title cannot be blank');
    expectError(await t.patch(`saved_snippets/${id}`, { as: member, form: { content: 'x'.repeat(10_001) } }), 400, 'content is too long (limit: 10000 characters)');
    expect(await find()).toMatchObject({ title: 'T', content: 'C' });
  });

  it('answers 404 for missing snippets and other users’ snippets', async () => {
    const id = (await create(member, { title: 'Mine', content: 'mine' })).body.saved_snippet_id;
    expectError(await t.patch(`saved_snippets/${id}`, { as: other, form: { title: 'x' } }), 404, 'Saved snippet does not exist.');
    expectError(await t.patch('saved_snippets/999999', { as: member, form: { title: 'x' } }), 404, 'Saved snippet does not exist.');
    // With nothing to change Zulip returns before looking the snippet up.
    expectSuccess(await t.patch('saved_snippets/999999', { as: member }));
    expectError(await t.delete(`saved_snippets/${id}`, { as: other }), 404, 'Saved snippet does not exist.');
    expect((await list(member)).find((s: { id: number }) => s.id === id)).toMatchObject({ title: 'Mine' });
  });

  it('deletes one’s own snippet once', async () => {
    const id = (await create(member, { title: 'Temp', content: 'temp' })).body.saved_snippet_id;
    expectSuccess(await t.delete(`saved_snippets/${id}`, { as: member }));
    expect((await list(member)).some((s: { id: number }) => s.id === id)).toBe(false);
    expectError(await t.delete(`saved_snippets/${id}`, { as: member }), 404, 'Saved snippet does not exist.');
  });

  it('keeps organizations apart', async () => {
    const foreign = await t.createOrganization('snippets-elsewhere');
    const id = (await create(member, { title: 'Home', content: 'home' })).body.saved_snippet_id;
    expect(await list(foreign)).toEqual([]);
    expectError(await t.patch(`saved_snippets/${id}`, { as: foreign, form: { title: 'x' } }), 404, 'Saved snippet does not exist.');
    expectError(await t.delete(`saved_snippets/${id}`, { as: foreign }), 404, 'Saved snippet does not exist.');
    expectSuccess(await create(foreign, { title: 'Away', content: 'away' }));
    expect(await list(foreign)).toMatchObject([{ title: 'Away' }]);
  });
});
