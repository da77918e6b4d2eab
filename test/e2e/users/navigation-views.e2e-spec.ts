import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * GET/POST /navigation_views, PATCH/DELETE /navigation_views/{fragment} (Zulip's
 * zerver/views/navigation_views.py, zerver/actions/navigation_views.py,
 * zerver/tests/test_navigation_views.py), register's `navigation_views` and the
 * `navigation_view` events.
 */
let t: TestApp;
let member: Account;
let other: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser();
  other = await t.createUser();
  guest = await t.createUser({ role: 600 });
  bot = await t.createBot(member, 'navigator');
  otherOwner = await t.createOrganization('elsewhere');
});
afterAll(() => t.close());

const views = async (as: Account) => {
  const res = await t.get('navigation_views', { as });
  expectSuccess(res);
  return res.body.navigation_views as { fragment: string; is_pinned: boolean; name: string | null }[];
};
const rows = async () => (await t.sql(`SELECT count(*)::int AS n FROM navigation_views`))[0].n as number;
const add = (as: Account, form: Record<string, unknown>) => t.post('navigation_views', { as, form });
const strip = ({ id: _, ...e }: Record<string, unknown>) => e;
/** A fragment as clients put it in the path: one segment, slashes encoded. */
const at = (fragment: string) => `navigation_views/${encodeURIComponent(fragment)}`;

describe('POST /navigation_views', () => {
  it('adds a built-in view and a custom one; the user hears each, the list and register agree', async () => {
    const mine = await EventClient.register(t, member);
    const theirs = await EventClient.register(t, other);
    expect(await views(member)).toEqual([]);
    expectSuccess(await add(member, { fragment: 'recent', is_pinned: true }));
    expectSuccess(await add(member, { fragment: '  narrow/is/alerted ', is_pinned: false, name: ' Alert words ' }));
    expect((await mine.ofType('navigation_view', 2)).map(strip)).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'recent', is_pinned: true, name: null } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alert words' } },
    ]);
    expect(await theirs.drain()).toEqual([]);
    const expected = [
      { fragment: 'recent', is_pinned: true, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alert words' },
    ];
    expect(await views(member)).toEqual(expected);
    const reg = await t.post('register', { as: member, form: { fetch_event_types: ['navigation_views'] } });
    expect(reg.body.navigation_views).toEqual(expected);
    expect(await views(other)).toEqual([]);
  });

  it('refuses what Zulip refuses, with its words, and writes nothing', async () => {
    const before = await rows();
    expectError(await add(member, { fragment: 'inbox', is_pinned: true, name: 'Box' }), 400, 'Built-in views cannot have a custom name.');
    expectError(await add(member, { fragment: 'narrow/view', is_pinned: true }), 400, 'Custom views must have a valid name.');
    expectError(await add(member, { fragment: 'recent', is_pinned: false }), 400, 'Navigation view already exists.');
    expectError(await add(member, { fragment: 'narrow/is/other', is_pinned: false, name: 'Alert words' }), 400, 'Navigation view already exists.');
    expectError(await add(member, { fragment: ' ', is_pinned: true }), 400, 'fragment cannot be blank');
    expectError(await add(member, { fragment: 'narrow/x', is_pinned: true, name: '  ' }), 400, 'name cannot be blank');
    expectError(await add(member, { fragment: 'inbox', is_pinned: 'yes' }), 400, 'is_pinned is not valid JSON');
    expectError(await add(member, { fragment: 'inbox', is_pinned: 1 }), 400, 'is_pinned is not a boolean');
    expectError(await add(member, { fragment: 'inbox' }), 400, "Missing 'is_pinned' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'is_pinned' });
    expectError(await add(member, { is_pinned: true }), 400, "Missing 'fragment' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'fragment' });
    expectError(await add(member, { fragment: 'a\u0000b', is_pinned: true, name: 'x' }), 400, 'Invalid characters in fragment');
    expect(await rows()).toBe(before);
  });

  it('has no length limit of its own (as Zulip); a body beyond the server limit is refused and nothing stored', async () => {
    const before = await rows();
    const long = 'v'.repeat(10_000);
    expectSuccess(await add(other, { fragment: `narrow/search/${long}`, is_pinned: true, name: long }));
    expect((await views(other)).map((v) => v.name)).toEqual([long]);
    const huge = await add(other, { fragment: 'narrow/huge', is_pinned: true, name: 'x'.repeat(6 * 1024 * 1024) });
    expectError(huge, 413, 'Request entity too large');
    expect(await rows()).toBe(before + 1);
  });

  it('is open to guests and bots, each with their own views', async () => {
    expectSuccess(await add(guest, { fragment: 'inbox', is_pinned: false }));
    expectSuccess(await add(bot, { fragment: 'inbox', is_pinned: true }));
    expect(await views(guest)).toEqual([{ fragment: 'inbox', is_pinned: false, name: null }]);
    expect(await views(bot)).toEqual([{ fragment: 'inbox', is_pinned: true, name: null }]);
    expectError(await t.get('navigation_views', { as: null }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  it('changes what it is sent (a fragment with slashes is one path); the event names the changes', async () => {
    const mine = await EventClient.register(t, member, { event_types: ['navigation_view'] });
    expectSuccess(await t.patch(at('narrow/is/alerted'), { as: member, form: { is_pinned: true, name: 'Watched phrases' } }));
    expectSuccess(await t.patch('navigation_views/recent', { as: member, form: { is_pinned: false } }));
    expect((await mine.ofType('navigation_view', 2)).map(strip)).toEqual([
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Watched phrases', is_pinned: true } },
      { type: 'navigation_view', op: 'update', fragment: 'recent', data: { is_pinned: false } },
    ]);
    expect(await views(member)).toEqual([
      { fragment: 'recent', is_pinned: false, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Watched phrases' },
    ]);
    // Zulip's own tests put the slashes in the path as they are: the rest of the path is the fragment.
    const raw = await t.patch('navigation_views/narrow/is/alerted', { as: member, form: { is_pinned: true }, notDocumented: 'slashes of {fragment} unencoded' });
    expectSuccess(raw);
  });

  it('refuses a name for a built-in view, a taken name, an unknown view (404), and changes nothing', async () => {
    const before = await views(member);
    expectError(await t.patch('navigation_views/recent', { as: member, form: { name: 'Recent stuff' } }), 400, 'Built-in views cannot have a custom name.');
    expectSuccess(await add(member, { fragment: 'narrow/is/followed', is_pinned: true, name: 'Followed' }));
    expectError(
      await t.patch(at('narrow/is/followed'), { as: member, form: { name: 'Watched phrases' } }),
      400,
      'Navigation view already exists.',
    );
    expectError(await t.patch('navigation_views/nonexistent', { as: member, form: { is_pinned: true } }), 404, 'Navigation view does not exist.');
    expectError(await t.patch('navigation_views/%20', { as: member, form: { is_pinned: true } }), 400, 'fragment cannot be blank');
    expectError(await t.patch('navigation_views/recent', { as: member, form: { is_pinned: 'no' } }), 400, 'is_pinned is not valid JSON');
    // Another user's view, in this organization or another, is not there.
    expectError(await t.patch('navigation_views/recent', { as: other, form: { is_pinned: true } }), 404, 'Navigation view does not exist.');
    expectError(await t.patch('navigation_views/recent', { as: otherOwner, form: { is_pinned: true } }), 404, 'Navigation view does not exist.');
    expect((await views(member)).slice(0, 2)).toEqual(before);
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  it('removes the view; the user hears it; a second time it does not exist', async () => {
    const mine = await EventClient.register(t, member, { event_types: ['navigation_view'] });
    expectSuccess(await t.delete(at('narrow/is/followed'), { as: member }));
    expect((await mine.ofType('navigation_view')).map(strip)).toEqual([{ type: 'navigation_view', op: 'remove', fragment: 'narrow/is/followed' }]);
    expect((await views(member)).map((v) => v.fragment)).toEqual(['recent', 'narrow/is/alerted']);
    expectError(await t.delete(at('narrow/is/followed'), { as: member }), 404, 'Navigation view does not exist.');
    expectError(await t.delete('navigation_views/recent', { as: otherOwner }), 404, 'Navigation view does not exist.');
    expect((await views(member)).map((v) => v.fragment)).toEqual(['recent', 'narrow/is/alerted']);
  });
});
