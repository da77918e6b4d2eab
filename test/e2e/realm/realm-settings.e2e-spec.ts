import { systemGroups } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let groups: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200 });
  moderator = await t.createUser({ role: 300 });
  member = await t.createUser();
  guest = await t.createUser({ role: 600 });
  bot = await t.createBot(member, 'helper');
  otherOwner = await t.createOrganization('other');
  groups = await systemGroups(t);
});
afterAll(() => t.close());

const patch = (form: Record<string, unknown>, as: Account = admin) => t.patch('realm', { as, form });
const realm = async (as: Account = t.owner) => (await t.post('register', { as, form: { fetch_event_types: ['realm'] } })).body;

describe('PATCH /realm: who may call it', () => {
  it('refuses non-administrators before reading any parameter', async () => {
    for (const as of [moderator, member, guest, bot]) {
      expectError(await t.patch('realm', { as }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await patch({ name: 'x' }, as), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
  });

  it('leaves the owner-only settings to owners', async () => {
    const ownerOnly: Record<string, unknown> = {
      message_retention_days: 30,
      invite_required: false,
      emails_restricted_to_domains: true,
      disallow_disposable_email_addresses: false,
      waiting_period_threshold: 3,
      create_multiuse_invite_group: { new: groups['role:members'] },
      can_create_groups: { new: groups['role:admins'] ?? groups['role:administrators'] },
      can_invite_users_group: { new: groups['role:administrators'] },
      can_manage_all_groups: { new: groups['role:administrators'] },
      can_manage_billing_group: { new: groups['role:owners'] },
    };
    for (const [name, value] of Object.entries(ownerOnly)) {
      expectError(await patch({ name: 'Renamed', [name]: value }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    }
    expect((await realm()).realm_name).not.toBe('Renamed');
    const res = await patch(
      { message_retention_days: 30, invite_required: false, emails_restricted_to_domains: true, disallow_disposable_email_addresses: false },
      t.owner,
    );
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      message_retention_days: 30,
      invite_required: false,
      emails_restricted_to_domains: true,
      disallow_disposable_email_addresses: false,
    });
    const state = await realm();
    expect([
      state.realm_message_retention_days,
      state.realm_invite_required,
      state.realm_emails_restricted_to_domains,
      state.realm_disallow_disposable_email_addresses,
    ]).toEqual([30, false, true, false]);
    expectSuccess(
      await patch(
        { message_retention_days: 'unlimited', invite_required: true, emails_restricted_to_domains: false, disallow_disposable_email_addresses: true },
        t.owner,
      ),
    );
    expect((await realm()).realm_message_retention_days).toBe(-1);
  });
});

describe('PATCH /realm: plain settings', () => {
  it('renames and describes the organization, reporting text settings as "updated"', async () => {
    const res = await patch({ name: 'Acme Chat', description: 'Where <Acme> talks' });
    expect(res.body).toEqual({ result: 'success', msg: '', name: 'updated', description: 'updated' });
    const state = await realm();
    expect(state.realm_name).toBe('Acme Chat');
    expect(state.realm_description).toBe('<p>Where &lt;Acme&gt; talks</p>');
    expect((await t.get('server_settings', { as: null })).body.realm_name).toBe('Acme Chat');
    // Unchanged values are not reported.
    expect((await patch({ name: 'Acme Chat' })).body).toEqual({ result: 'success', msg: '' });
    expectError(await patch({ name: 'n'.repeat(41) }), 400, 'name is too long (limit: 40 characters)');
    expectError(await patch({ description: 'd'.repeat(1001) }), 400, 'description is too long (limit: 1000 characters)');
    expectSuccess(await patch({ description: 'd'.repeat(1000) }));
  });

  it('answers an empty request with success', async () => {
    expect((await t.patch('realm', { as: admin })).body).toEqual({ result: 'success', msg: '' });
  });

  it('lists parameters it does not know as ignored', async () => {
    const res = await patch({ allow_message_editing: true, bogus_setting: 1 });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['bogus_setting'] });
  });

  it('sets editing and the time limits; "unlimited" (quoted or not) means no limit', async () => {
    const res = await patch({
      allow_message_editing: false,
      message_content_edit_limit_seconds: 3600,
      message_content_delete_limit_seconds: '"unlimited"',
      move_messages_within_stream_limit_seconds: 'unlimited',
      move_messages_between_streams_limit_seconds: 86400,
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      allow_message_editing: false,
      message_content_edit_limit_seconds: 3600,
      message_content_delete_limit_seconds: null,
      move_messages_within_stream_limit_seconds: null,
      move_messages_between_streams_limit_seconds: 86400,
    });
    const state = await realm();
    expect([
      state.realm_allow_message_editing,
      state.realm_message_content_edit_limit_seconds,
      state.realm_message_content_delete_limit_seconds,
      state.realm_move_messages_within_stream_limit_seconds,
      state.realm_move_messages_between_streams_limit_seconds,
    ]).toEqual([false, 3600, null, null, 86400]);
    expect((await patch({ message_content_delete_limit_seconds: 'unlimited' })).body).toEqual({ result: 'success', msg: '' });
    expectSuccess(await patch({ allow_message_editing: true, message_content_edit_limit_seconds: 600, message_content_delete_limit_seconds: 600 }));
  });

  it('refuses bad time limits and retention values with REQUEST_VARIABLE_INVALID', async () => {
    for (const [name, value, shown] of [
      ['message_content_edit_limit_seconds', 0, 0],
      ['message_content_delete_limit_seconds', -10, -10],
      ['move_messages_within_stream_limit_seconds', 'forever', 'forever'],
      ['move_messages_between_streams_limit_seconds', '"never"', 'never'],
    ] as const) {
      expectError(await patch({ [name]: value }), 400, `Bad value for '${name}': ${shown}`, 'REQUEST_VARIABLE_INVALID', {
        var_name: name,
        bad_value: shown,
      });
    }
    expectError(await patch({ message_content_edit_limit_seconds: 1.5 }), 400, 'message_content_edit_limit_seconds is not an integer');
    expectError(await patch({ allow_message_editing: 'yes' }), 400, 'allow_message_editing is not valid JSON');
    expectError(await patch({ allow_message_editing: 1 }), 400, 'allow_message_editing is not a boolean');
    for (const value of [0, 'realm_default']) {
      expectError(await patch({ message_retention_days: value }, t.owner), 400, `Bad value for 'message_retention_days': ${value}`, 'REQUEST_VARIABLE_INVALID', {
        var_name: 'message_retention_days',
        bad_value: value,
      });
    }
  });

  it('sets the edit-history policy and the topics policy by name, reporting their numbers', async () => {
    expect((await patch({ message_edit_history_visibility_policy: 'moves', topics_policy: 'disable_empty_topic' })).body).toEqual({
      result: 'success',
      msg: '',
      message_edit_history_visibility_policy: 2,
      topics_policy: 3,
    });
    let state = await realm();
    expect([state.realm_message_edit_history_visibility_policy, state.realm_allow_edit_history]).toEqual(['moves', true]);
    expect([state.realm_topics_policy, state.realm_mandatory_topics]).toEqual(['disable_empty_topic', true]);
    expectSuccess(await patch({ message_edit_history_visibility_policy: 'none', topics_policy: 'allow_empty_topic' }));
    state = await realm();
    expect([state.realm_message_edit_history_visibility_policy, state.realm_allow_edit_history]).toEqual(['none', false]);
    expect([state.realm_topics_policy, state.realm_mandatory_topics]).toEqual(['allow_empty_topic', false]);
    expect(state.realm_empty_topic_display_name).toBe('general chat');
    expectError(await patch({ message_edit_history_visibility_policy: 'some' }), 400, 'Invalid message_edit_history_visibility_policy');
    expectError(await patch({ topics_policy: 'inherit' }), 400, 'Invalid topics_policy');
    expectSuccess(await patch({ message_edit_history_visibility_policy: 'all' }));
  });

  it('turns spectator access on for administrators', async () => {
    expect((await patch({ enable_spectator_access: true })).body).toMatchObject({ enable_spectator_access: true });
    expect((await realm()).realm_enable_spectator_access).toBe(true);
    expectSuccess(await patch({ enable_spectator_access: false }));
  });

  it('keeps organizations apart', async () => {
    expectSuccess(await patch({ name: 'Mine', allow_message_editing: false }));
    const theirs = await realm(otherOwner);
    expect([theirs.realm_name, theirs.realm_allow_message_editing]).toEqual(['Org other', true]);
    expectSuccess(await patch({ name: 'Theirs' }, otherOwner));
    expect((await realm()).realm_name).toBe('Mine');
    expectSuccess(await patch({ allow_message_editing: true }));
  });
});

describe('PATCH /realm: waiting period and full members', () => {
  const isFull = async (userId: number) =>
    (await t.get(`user_groups/${groups['role:fullmembers']}/members/${userId}`)).body.is_user_group_member;

  const directFullMembers = async (): Promise<number[]> =>
    (await t.get('user_groups')).body.user_groups.find((g: { id: number }) => g.id === groups['role:fullmembers']).members;

  it('recomputes role:fullmembers for every member, bots included', async () => {
    const older = await t.createUser();
    t.clock.advance(5 * 86400);
    const newer = await t.createUser();
    expect([await isFull(older.id), await isFull(newer.id), await isFull(member.id)]).toEqual([true, true, true]);

    expectError(await patch({ waiting_period_threshold: -1 }, t.owner), 400, 'waiting_period_threshold is too small');
    expectError(await patch({ waiting_period_threshold: '"3"' }, t.owner), 400, 'waiting_period_threshold is not an integer');

    expect((await patch({ waiting_period_threshold: 3 }, t.owner)).body).toEqual({ result: 'success', msg: '', waiting_period_threshold: 3 });
    expect((await realm()).realm_waiting_period_threshold).toBe(3);
    expect([await isFull(older.id), await isFull(newer.id), await isFull(member.id)]).toEqual([true, false, true]);
    expect(await directFullMembers()).toEqual(expect.arrayContaining([bot.id, member.id, older.id]));
    expect(await directFullMembers()).not.toContain(newer.id);
    // Moderators and above are always full members; guests never are.
    expect([await isFull(moderator.id), await isFull(admin.id), await isFull(guest.id)]).toEqual([true, true, false]);

    expectSuccess(await patch({ waiting_period_threshold: 6 }, t.owner));
    expect([await isFull(older.id), await isFull(newer.id)]).toEqual([false, false]);

    t.clock.advance(2 * 86400);
    expectSuccess(await patch({ waiting_period_threshold: 7 }, t.owner));
    expect([await isFull(older.id), await isFull(newer.id)]).toEqual([true, false]);

    expectSuccess(await patch({ waiting_period_threshold: 0 }, t.owner));
    expect([await isFull(older.id), await isFull(newer.id)]).toEqual([true, true]);
  });
});

describe('PATCH /realm: group settings', () => {
  it('changes a setting to a group and reports the new value', async () => {
    const res = await patch({ can_create_bots_group: { new: groups['role:administrators'], old: groups['role:members'] } });
    expect(res.body).toEqual({ result: 'success', msg: '', can_create_bots_group: groups['role:administrators'] });
    expect((await realm()).realm_can_create_bots_group).toBe(groups['role:administrators']);
    // The organization now enforces it.
    expectError(await t.post('bots', { as: member, form: { full_name: 'No Bot', short_name: 'nobot' } }), 400, 'Insufficient permission');
    expectSuccess(await patch({ can_create_bots_group: { new: groups['role:members'] } }));
    expectSuccess(await t.post('bots', { as: member, form: { full_name: 'Yes Bot', short_name: 'yesbot' } }));
  });

  it('takes anonymous groups and normalises them', async () => {
    const value = { direct_members: [member.id], direct_subgroups: [groups['role:moderators']] };
    const res = await patch({ can_add_custom_emoji_group: { new: value } });
    expect(res.body).toEqual({ result: 'success', msg: '', can_add_custom_emoji_group: value });
    expect((await realm()).realm_can_add_custom_emoji_group).toEqual(value);
    // {[], [G]} is G; {[], []} is role:nobody.
    expect((await patch({ can_add_custom_emoji_group: { new: { direct_members: [], direct_subgroups: [groups['role:members']] } } })).body).toEqual({
      result: 'success',
      msg: '',
      can_add_custom_emoji_group: groups['role:members'],
    });
    expect((await patch({ can_add_custom_emoji_group: { new: { direct_members: [], direct_subgroups: [] } } })).body).toEqual({
      result: 'success',
      msg: '',
      can_add_custom_emoji_group: groups['role:nobody'],
    });
    expectSuccess(await patch({ can_add_custom_emoji_group: { new: groups['role:members'] } }));
  });

  it('compares old with the current value (members and subgroups as sets)', async () => {
    const value = { direct_members: [member.id, admin.id], direct_subgroups: [] };
    expectSuccess(await patch({ can_mention_many_users_group: { new: value } }));
    expectError(
      await patch({ can_mention_many_users_group: { new: groups['role:members'], old: groups['role:administrators'] } }),
      400,
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
      { field_name: 'old' },
    );
    expectSuccess(
      await patch({
        can_mention_many_users_group: { new: groups['role:administrators'], old: { direct_members: [admin.id, member.id], direct_subgroups: [] } },
      }),
    );
    expect((await realm()).realm_can_mention_many_users_group).toBe(groups['role:administrators']);
    // The current value again: nothing changes, nothing is reported.
    expect((await patch({ can_mention_many_users_group: { new: groups['role:administrators'] } })).body).toEqual({ result: 'success', msg: '' });
  });

  it('validates the new value against the setting', async () => {
    expectError(await patch({ can_create_public_channel_group: { new: 999999 } }), 400, 'Invalid user group');
    expectError(
      await patch({ can_create_web_public_channel_group: { new: groups['role:everyone'] } }),
      400,
      "'can_create_web_public_channel_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await patch({ can_create_public_channel_group: { new: groups['role:internet'] } }),
      400,
      "'can_create_public_channel_group' setting cannot be set to 'role:internet' group.",
    );
    expectError(
      await patch({ can_access_all_users_group: { new: groups['role:administrators'] } }),
      400,
      "'can_access_all_users_group' setting cannot be set to 'role:administrators' group.",
    );
    expectError(
      await patch({ can_access_all_users_group: { new: { direct_members: [member.id], direct_subgroups: [] } } }),
      400,
      "'can_access_all_users_group' must be a system user group.",
    );
    expectError(
      await patch({ can_resolve_topics_group: { new: { direct_members: [999999], direct_subgroups: [] } } }),
      400,
      'Invalid user ID: 999999',
    );
    expectError(await patch({ can_resolve_topics_group: 'x' }), 400, 'can_resolve_topics_group is not valid JSON');
    expectError(await patch({ can_resolve_topics_group: { new: 'x' } }), 400, 'can_resolve_topics_group["new"] is not an integer');
    expectError(await patch({ can_resolve_topics_group: { old: groups['role:members'] } }), 400, 'can_resolve_topics_group["new"] field is missing: Field required');
    // Another organization's groups do not exist here.
    const theirs = await systemGroups({ get: (p: string) => t.get(p, { as: otherOwner }) } as unknown as TestApp);
    expectError(await patch({ can_resolve_topics_group: { new: theirs['role:members'] } }), 400, 'Invalid user group');
  });

  it('changes nothing when any part of the request fails', async () => {
    const before = await realm();
    expectError(
      await patch({ name: 'Half done', allow_message_editing: false, can_create_public_channel_group: { new: 999999 } }),
      400,
      'Invalid user group',
    );
    const after = await realm();
    expect([after.realm_name, after.realm_allow_message_editing]).toEqual([before.realm_name, before.realm_allow_message_editing]);
  });

  it('lets owners change the owner-only group settings', async () => {
    const res = await patch(
      { can_invite_users_group: { new: groups['role:administrators'] }, create_multiuse_invite_group: { new: groups['role:owners'] } },
      t.owner,
    );
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      can_invite_users_group: groups['role:administrators'],
      create_multiuse_invite_group: groups['role:owners'],
    });
    const state = await t.post('register', { as: member, form: { fetch_event_types: ['realm', 'realm_user'] } });
    expect(state.body.realm_can_invite_users_group).toBe(groups['role:administrators']);
    expect(state.body.can_invite_others_to_realm).toBe(false);
    expectSuccess(
      await patch({ can_invite_users_group: { new: groups['role:members'] }, create_multiuse_invite_group: { new: groups['role:administrators'] } }, t.owner),
    );
  });

  it('accepts every group setting of the organization', async () => {
    const names = [
      'can_add_custom_emoji_group',
      'can_add_subscribers_group',
      'can_create_bots_group',
      'can_create_private_channel_group',
      'can_create_public_channel_group',
      'can_create_write_only_bots_group',
      'can_delete_any_message_group',
      'can_delete_own_message_group',
      'can_mention_many_users_group',
      'can_move_messages_between_channels_group',
      'can_move_messages_between_topics_group',
      'can_resolve_topics_group',
      'can_set_delete_message_policy_group',
      'can_set_topics_policy_group',
      'can_summarize_topics_group',
      'direct_message_initiator_group',
      'direct_message_permission_group',
    ];
    const before = await realm();
    const res = await patch(Object.fromEntries(names.map((n) => [n, { new: groups['role:moderators'] }])));
    expectSuccess(res);
    const state = await realm();
    for (const n of names) expect(state[`realm_${n}`], n).toBe(groups['role:moderators']);
    expectSuccess(await patch(Object.fromEntries(names.map((n) => [n, { new: before[`realm_${n}`] }]))));
  });
});
