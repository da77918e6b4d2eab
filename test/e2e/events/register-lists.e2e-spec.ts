import { createChannels } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/*
 * The lists POST /register carries must be what their GET endpoints answer, for the same user.
 * Zulip has no GET for code playgrounds or default channels: register's realm_playgrounds is
 * compared with what was created, realm_default_streams with GET /streams?include_default=true.
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let admin: Account;
let member: Account;
let guest: Account;
let playgroundId: number;
let defaultChannelId: number;
beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, guest } = await t.createRoleAccounts());
  expectSuccess(await t.post('realm/filters', { as: admin, form: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' } }));
  expectSuccess(
    await t.post('realm/filters', {
      as: admin,
      form: { pattern: 'GH-(?P<id>[0-9]+)', url_template: 'https://github.com/o/r/issues/{id}', example_input: 'GH-12', reverse_template: 'GH-{id}' },
    }),
  );
  const playground = await t.post('realm/playgrounds', {
    as: admin,
    form: { name: 'Python sandbox', pygments_language: 'Python', url_template: 'https://python.example.com/?code={code}' },
  });
  expectSuccess(playground);
  playgroundId = playground.body.id;
  expectSuccess(await t.post('realm/domains', { form: { domain: 'example.org', allow_subdomains: true } }));
  expectSuccess(await t.post('user_groups/create', { as: admin, form: { name: 'reviewers', description: 'Code review', members: [member.id] } }));
  const emoji = await t.http.post('/api/v1/realm/emoji/green_tick').auth(member.email, member.apiKey).attach('file', PNG, 'tick.png');
  expectSuccess(emoji);
  expectSuccess(await t.http.post('/api/v1/realm/emoji/retired').auth(member.email, member.apiKey).attach('file', PNG, 'old.png'));
  expectSuccess(await t.delete('realm/emoji/retired', { as: member }));
  const ids = await createChannels(t, ['welcome', 'elsewhere']);
  defaultChannelId = ids.welcome;
  expectSuccess(await t.patch(`streams/${defaultChannelId}`, { form: { is_default_stream: true } }));
});
afterAll(() => t.close());

const register = async (as: Account) => {
  const res = await t.post('register', {
    as,
    form: {
      fetch_event_types: ['realm_linkifiers', 'realm_playgrounds', 'realm_domains', 'realm_emoji', 'realm_user_groups', 'default_streams'],
      client_capabilities: { notification_settings_null: false, linkifier_url_template: true },
    },
  });
  expectSuccess(res);
  return res.body;
};
const got = async (path: string, as: Account, query?: Record<string, unknown>) => {
  const res = await t.get(path, { as, query });
  expectSuccess(res);
  return res.body;
};

describe('register lists agree with their GET endpoints', () => {
  it.each([
    ['member', () => member],
    ['administrator', () => admin],
    ['guest', () => guest],
  ])('for a %s', async (_, who) => {
    const as = who();
    const state = await register(as);

    const linkifiers = (await got('realm/linkifiers', as)).linkifiers;
    expect(state.realm_linkifiers).toEqual(linkifiers);
    expect(linkifiers).toEqual([
      { id: expect.any(Number), pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}', example_input: null, reverse_template: null, alternative_url_templates: [] },
      {
        id: expect.any(Number),
        pattern: 'GH-(?P<id>[0-9]+)',
        url_template: 'https://github.com/o/r/issues/{id}',
        example_input: 'GH-12',
        reverse_template: 'GH-{id}',
        alternative_url_templates: [],
      },
    ]);

    expect(state.realm_playgrounds).toEqual([
      { id: playgroundId, name: 'Python sandbox', pygments_language: 'Python', url_template: 'https://python.example.com/?code={code}' },
    ]);

    const domains = (await got('realm/domains', as)).domains;
    expect(state.realm_domains).toEqual(domains);
    expect(domains).toEqual([{ domain: 'example.org', allow_subdomains: true }]);

    const emoji = (await got('realm/emoji', as)).emoji;
    expect(state.realm_emoji).toEqual(emoji);
    expect(Object.values(emoji).map((e) => (e as { name: string; deactivated: boolean }).name)).toEqual(['green_tick', 'retired']);
    for (const [id, e] of Object.entries(emoji)) {
      expect(e).toEqual({
        id,
        name: expect.any(String),
        source_url: expect.stringMatching(/^\/user_avatars\/\d+\/emoji\/images\/[0-9a-f]{8}\.png$/),
        deactivated: expect.any(Boolean),
        author_id: member.id,
        still_url: null,
      });
    }

    // GET /user_groups is Zulip's require_member_or_admin: guests have only register's list.
    if (as === guest) {
      expectError(await t.get('user_groups', { as }), 400, 'Not allowed for guest users');
    } else {
      expect(state.realm_user_groups).toEqual((await got('user_groups', as)).user_groups);
    }
    const groups = state.realm_user_groups;
    expect(groups.find((g: { name: string }) => g.name === 'reviewers')).toEqual({
      id: expect.any(Number),
      name: 'reviewers',
      description: 'Code review',
      members: [member.id],
      direct_subgroup_ids: [],
      creator_id: admin.id,
      date_created: expect.any(Number),
      is_system_group: false,
      deactivated: false,
      can_add_members_group: expect.anything(),
      can_join_group: expect.anything(),
      can_leave_group: expect.anything(),
      can_manage_group: expect.anything(),
      can_mention_group: expect.anything(),
      can_remove_members_group: expect.anything(),
    });

    // Guests are not told the default channels (Zulip sends them an empty list), though they see
    // the default channels they were subscribed to on joining (the organization's initial ones).
    const streams = (await got('streams', as, { include_default: true, include_all: true })).streams as { stream_id: number; is_default: boolean }[];
    const defaults = streams
      .filter((s) => s.is_default)
      .map((s) => s.stream_id)
      .sort((a, b) => a - b);
    if (as === guest) {
      expect(defaults).not.toContain(defaultChannelId);
      expect(state.realm_default_streams).toEqual([]);
    } else {
      expect(defaults).toContain(defaultChannelId);
      expect(state.realm_default_streams).toEqual(defaults);
    }
  });
});
