import { systemGroups } from '../../support/channels.js';
import { expectAllGot, registerAll } from '../../support/events.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

// realm_linkifiers, realm_playgrounds, realm_domains and realm events (spec 30 §7.12, §7.13):
// to every active user of the organization, bots and guests included; nothing to another organization.
let t: TestApp;
let admin: Account;
let guest: Account;
let bot: Account;
let subOwner: Account;
let groups: Record<string, number>;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(admin, 'watcher');
  subOwner = await t.createOrganization('sub');
  groups = await systemGroups(t);
});
afterAll(() => t.close());

const LINKIFY = { notification_settings_null: false, linkifier_url_template: true };


describe('realm_linkifiers', () => {
  it('sends the complete list after add, update, reorder and remove, only to queues with linkifier_url_template', async () => {
    const everyone = await registerAll(t, [t.owner, admin, guest, bot], { client_capabilities: LINKIFY });
    const [legacy] = await registerAll(t, [guest]);
    const [sub] = await registerAll(t, [subOwner], { client_capabilities: LINKIFY });
    const a = (await t.post('realm/filters', { as: admin, form: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' } })).body.id;
    const entry = (id: number, pattern: string, url: string) => ({
      pattern,
      url_template: url,
      id,
      example_input: null,
      reverse_template: null,
      alternative_url_templates: [],
    });
    const la = entry(a, '#(?P<id>[0-9]+)', 'https://x/{id}');
    await expectAllGot(everyone, [{ type: 'realm_linkifiers', realm_linkifiers: [la] }]);

    const b = (await t.post('realm/filters', { as: admin, form: { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://t/{id}' } })).body.id;
    const lb = entry(b, 'T(?P<id>[0-9]+)', 'https://t/{id}');
    expectSuccess(await t.patch(`realm/filters/${a}`, { as: admin, form: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://y/{id}' } }));
    const la2 = entry(a, '#(?P<id>[0-9]+)', 'https://y/{id}');
    expectSuccess(await t.patch('realm/linkifiers', { as: admin, form: { ordered_linkifier_ids: [b, a] } }));
    expectSuccess(await t.delete(`realm/filters/${b}`, { as: admin }));
    await expectAllGot(everyone, [
      { type: 'realm_linkifiers', realm_linkifiers: [la, lb] },
      { type: 'realm_linkifiers', realm_linkifiers: [la2, lb] },
      { type: 'realm_linkifiers', realm_linkifiers: [lb, la2] },
      { type: 'realm_linkifiers', realm_linkifiers: [la2] },
    ]);
    expect(await legacy.drain()).toEqual([]);
    expect(await sub.drain()).toEqual([]);

    // Reordering an empty list changes nothing and sends nothing; a failed request neither.
    expectSuccess(await t.delete(`realm/filters/${a}`, { as: admin }));
    await expectAllGot(everyone, [{ type: 'realm_linkifiers', realm_linkifiers: [] }]);
    expectSuccess(await t.patch('realm/linkifiers', { as: admin, form: { ordered_linkifier_ids: [] } }));
    expect((await t.delete(`realm/filters/${a}`, { as: admin })).status).toBe(400);
    const c = (await t.post('realm/filters', { as: admin, form: { pattern: 'C(?P<id>[0-9]+)', url_template: 'https://c/{id}' } })).body.id;
    await expectAllGot(everyone.slice(0, 1), [{ type: 'realm_linkifiers', realm_linkifiers: [entry(c, 'C(?P<id>[0-9]+)', 'https://c/{id}')] }]);
    expectSuccess(await t.delete(`realm/filters/${c}`, { as: admin }));
  });
});

describe('realm_playgrounds', () => {
  it('sends the complete list after add and remove', async () => {
    const everyone = await registerAll(t, [t.owner, guest, bot]);
    const [sub] = await registerAll(t, [subOwner]);
    const form = { name: 'Python', pygments_language: 'Python', url_template: 'https://python.example/?code={code}' };
    const id = (await t.post('realm/playgrounds', { as: admin, form })).body.id;
    const p = { id, name: 'Python', pygments_language: 'Python', url_template: 'https://python.example/?code={code}' };
    const id2 = (await t.post('realm/playgrounds', { as: admin, form: { ...form, name: 'Py2' } })).body.id;
    expectSuccess(await t.delete(`realm/playgrounds/${id}`, { as: admin }));
    await expectAllGot(everyone, [
      { type: 'realm_playgrounds', realm_playgrounds: [p] },
      { type: 'realm_playgrounds', realm_playgrounds: [p, { ...p, id: id2, name: 'Py2' }] },
      { type: 'realm_playgrounds', realm_playgrounds: [{ ...p, id: id2, name: 'Py2' }] },
    ]);
    expect(await sub.drain()).toEqual([]);
    expectSuccess(await t.delete(`realm/playgrounds/${id2}`, { as: admin }));
  });
});

describe('realm_domains', () => {
  it('add, change and remove; removing the last domain lifts the restriction first', async () => {
    const everyone = await registerAll(t, [t.owner, admin, guest, bot]);
    const [sub] = await registerAll(t, [subOwner]);
    expectSuccess(await t.post('realm/domains', { form: { domain: 'Acme.COM', allow_subdomains: false } }));
    expectSuccess(await t.patch('realm/domains/acme.com', { form: { allow_subdomains: true } }));
    expectSuccess(await t.post('realm/domains', { form: { domain: 'beta.org', allow_subdomains: true } }));
    expectSuccess(await t.patch('realm', { form: { emails_restricted_to_domains: true } }));
    expectSuccess(await t.delete('realm/domains/acme.com'));
    expectSuccess(await t.delete('realm/domains/beta.org'));
    await expectAllGot(everyone, [
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'acme.com', allow_subdomains: false } },
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'acme.com', allow_subdomains: true } },
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'beta.org', allow_subdomains: true } },
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: true },
      { type: 'realm_domains', op: 'remove', domain: 'acme.com' },
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'beta.org' },
    ]);
    expect(await sub.drain()).toEqual([]);
  });
});

describe('realm (PATCH /realm)', () => {
  it('sends update or update_dict per changed setting, in Zulip’s order, and nothing for unchanged ones', async () => {
    const everyone = await registerAll(t, [t.owner, admin, guest, bot]);
    const [sub] = await registerAll(t, [subOwner]);
    expectSuccess(
      await t.patch('realm', {
        as: t.owner,
        form: {
          name: 'Renamed',
          description: 'About **us**',
          allow_message_editing: false,
          message_content_edit_limit_seconds: 3600,
          message_content_delete_limit_seconds: 'unlimited',
          move_messages_within_stream_limit_seconds: 600,
          move_messages_between_streams_limit_seconds: 'unlimited',
          message_edit_history_visibility_policy: 'moves',
          topics_policy: 'disable_empty_topic',
          message_retention_days: 30,
          waiting_period_threshold: 3,
          invite_required: false,
          disallow_disposable_email_addresses: false,
          can_create_bots_group: { new: groups['role:administrators'] },
          can_add_custom_emoji_group: { new: { direct_members: [admin.id], direct_subgroups: [groups['role:moderators']] } },
        },
      }),
    );
    const dict = (data: Record<string, unknown>) => ({ type: 'realm', op: 'update_dict', property: 'default', data });
    const update = (property: string, value: unknown) => ({ type: 'realm', op: 'update', property, value });
    await expectAllGot(everyone, [
      ...(await expectedTimeLimitEvents()),
      dict({ allow_message_editing: false }),
      update('description', 'About **us**'),
      update('disallow_disposable_email_addresses', false),
      update('invite_required', false),
      update('message_edit_history_visibility_policy', 'moves'),
      update('name', 'Renamed'),
      dict({ topics_policy: 'disable_empty_topic', mandatory_topics: true }),
      update('waiting_period_threshold', 3),
      update('message_retention_days', 30),
      dict({ can_add_custom_emoji_group: { direct_members: [admin.id], direct_subgroups: [groups['role:moderators']] } }),
      dict({ can_create_bots_group: groups['role:administrators'] }),
    ]);
    expect(await sub.drain()).toEqual([]);

    // The same values again: no events at all (a later change shows the queue was reached).
    expectSuccess(await t.patch('realm', { as: t.owner, form: { name: 'Renamed', allow_message_editing: false, topics_policy: 'disable_empty_topic' } }));
    expectSuccess(await t.patch('realm', { as: t.owner, form: { topics_policy: 'allow_empty_topic', message_content_edit_limit_seconds: 'unlimited' } }));
    await expectAllGot(everyone, [dict({ message_content_edit_limit_seconds: null }), dict({ topics_policy: 'allow_empty_topic', mandatory_topics: false })]);
  });
});

/** The time-limit events of the PATCH above, given the organization's defaults before it. */
let defaults: Record<string, unknown> | undefined;
async function expectedTimeLimitEvents(): Promise<Record<string, unknown>[]> {
  const d = defaults!;
  const out: Record<string, unknown>[] = [];
  if (d.realm_message_content_delete_limit_seconds !== null) {
    out.push({ type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: null });
  }
  if (d.realm_message_content_edit_limit_seconds !== 3600) {
    out.push({ type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 3600 } });
  }
  if (d.realm_move_messages_within_stream_limit_seconds !== 600) {
    out.push({ type: 'realm', op: 'update', property: 'move_messages_within_stream_limit_seconds', value: 600 });
  }
  if (d.realm_move_messages_between_streams_limit_seconds !== null) {
    out.push({ type: 'realm', op: 'update', property: 'move_messages_between_streams_limit_seconds', value: null });
  }
  return out;
}
beforeAll(async () => {
  defaults = (await t.post('register', { form: { fetch_event_types: ['realm'] } })).body;
});
