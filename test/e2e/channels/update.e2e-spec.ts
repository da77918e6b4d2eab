import { channelIds, createChannels, subscription, systemGroups } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let other: Account;
let groups: Record<string, number>;
beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200 });
  moderator = await t.createUser({ role: 300 });
  member = await t.createUser();
  other = await t.createUser();
  groups = await systemGroups(t);
});
afterAll(() => t.close());

const patch = (id: number, form: Record<string, unknown>, as: Account | undefined = admin) => t.patch(`streams/${id}`, { as, form });
const stream = async (id: number) => (await t.get(`streams/${id}`)).body.stream;

describe('who may administer a channel', () => {
  it('allows organization administrators and the channel’s administrators', async () => {
    const { team } = await createChannels(t, ['team'], { as: member });
    expectSuccess(await patch(team, { description: 'by admin' }));
    expectSuccess(await patch(team, { description: 'by creator' }, member));
    expect((await stream(team)).description).toBe('by creator');
  });

  it('gives members who can read the channel the exact error, and others Invalid channel ID', async () => {
    const { team } = await channelIds(t, ['team']);
    expectError(
      await patch(team, { description: 'x' }, other),
      400,
      'You do not have permission to administer this channel.',
      'CANNOT_ADMINISTER_CHANNEL',
    );
    expectError(await patch(team, { description: 'x' }, moderator), 400, 'You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
    const { hidden } = await createChannels(t, ['hidden'], { as: member, form: { invite_only: true } });
    expectError(await patch(hidden, { description: 'x' }, other), 400, 'Invalid channel ID');
    expectError(await patch(424242, { description: 'x' }), 400, 'Invalid channel ID');
    expectSuccess(await patch(hidden, { description: 'admins administer every channel' }));
  });
});

describe('a private channel with protected history (the issue’s walk-through)', () => {
  it('is created, joined by a member, described and re-permissioned by an administrator', async () => {
    const { vault } = await createChannels(t, ['vault'], { as: admin, form: { invite_only: true, history_public_to_subscribers: false } });
    expectSuccess(await t.post('users/me/subscriptions', { as: admin, form: { subscriptions: [{ name: 'vault' }], principals: [member.id] } }));
    expect((await t.get(`streams/${vault}/members`, { as: member })).body.subscribers.sort()).toEqual([admin.id, member.id].sort());
    expectSuccess(await patch(vault, { description: 'Keys and\nsecrets', can_remove_subscribers_group: { new: groups['role:members'] } }));
    expect(await stream(vault)).toMatchObject({
      description: 'Keys and secrets',
      invite_only: true,
      history_public_to_subscribers: false,
      can_remove_subscribers_group: groups['role:members'],
    });
    expectError(
      await patch(vault, { description: 'member edit' }, member),
      400,
      'You do not have permission to administer this channel.',
      'CANNOT_ADMINISTER_CHANNEL',
    );
  });
});

describe('names and descriptions', () => {
  it('renames, refusing the same name and taken names (case-insensitively)', async () => {
    const ids = await createChannels(t, ['alpha', 'beta']);
    expectError(await patch(ids.alpha, { new_name: 'alpha' }), 400, 'Channel already has that name.');
    expectError(await patch(ids.alpha, { new_name: 'BETA' }), 409, "Channel 'BETA' already exists", 'CHANNEL_ALREADY_EXISTS', {
      channel_name: 'BETA',
    });
    expectSuccess(await patch(ids.alpha, { new_name: ' Alpha ' }));
    expect((await stream(ids.alpha)).name).toBe('Alpha');
    expectSuccess(await patch(ids.alpha, { new_name: 'gamma' }));
    expectError(await patch(ids.alpha, { new_name: '' }), 400, "Channel name can't be empty.");
  });

  it('limits descriptions to 1024 code points', async () => {
    const { beta } = await channelIds(t, ['beta']);
    expectError(await patch(beta, { description: 'é'.repeat(1025) }), 400, 'description is too long (limit: 1024 characters)');
    expectSuccess(await patch(beta, { description: '😀'.repeat(1024) }));
  });
});

describe('privacy', () => {
  it('makes a public channel private (history becomes protected) and back', async () => {
    const { flip } = await createChannels(t, ['flip'], { as: admin });
    expectSuccess(await patch(flip, { is_private: true }));
    expect(await stream(flip)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expectSuccess(await patch(flip, { is_private: false }));
    expect(await stream(flip)).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
  });

  it.each([
    [{ is_private: false, history_public_to_subscribers: false }, 'Invalid parameters'],
    [{ history_public_to_subscribers: false }, 'Invalid parameters'],
    [{ is_web_public: true }, 'Web-public channels are not enabled.'],
  ])('refuses %j', async (form, msg) => {
    const { flip } = await channelIds(t, ['flip']);
    expectError(await patch(flip, form), 400, msg);
  });

  it('needs content access to change privacy, even for administrators', async () => {
    const { closed } = await createChannels(t, ['closed'], { as: member, form: { invite_only: true } });
    expectError(await patch(closed, { is_private: false }), 400, 'Channel content access is required.');
  });

  it('keeps protected history only with can_create_topic_group = role:everyone', async () => {
    const { topics } = await createChannels(t, ['topics'], { as: admin, form: { invite_only: true, history_public_to_subscribers: true } });
    expectSuccess(await patch(topics, { can_create_topic_group: { new: groups['role:members'] } }));
    expectError(
      await patch(topics, { history_public_to_subscribers: false }),
      400,
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
      'BAD_REQUEST',
      { parameters: 'history_public_to_subscribers, can_create_topic_group' },
    );
  });
});

describe('default channels, retention, archiving, topics policy, folders', () => {
  it('lets only organization administrators change default channels', async () => {
    const { lobby } = await createChannels(t, ['lobby'], { as: member });
    expectError(await patch(lobby, { is_default_stream: true }, member), 400, 'You do not have permission to change default channels.');
    expectSuccess(await patch(lobby, { is_default_stream: true }));
    const find = async () =>
      (await t.get('streams', { query: { include_default: true } })).body.streams.find((s: { stream_id: number }) => s.stream_id === lobby);
    expect((await find()).is_default).toBe(true);
    expectError(await patch(lobby, { is_private: true }), 400, 'A default channel cannot be private.');
    expectSuccess(await patch(lobby, { is_default_stream: false }));
    expect((await find()).is_default).toBe(false);
  });

  it('lets only owners set retention; parses the values', async () => {
    const { logs } = await createChannels(t, ['logs']);
    expectError(await patch(logs, { message_retention_days: 30 }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await patch(logs, { message_retention_days: 30 }, t.owner));
    expect((await stream(logs)).message_retention_days).toBe(30);
    expectSuccess(await patch(logs, { message_retention_days: 'unlimited' }, t.owner));
    expect((await stream(logs)).message_retention_days).toBe(-1);
    expectSuccess(await patch(logs, { message_retention_days: '"realm_default"' }, t.owner));
    expect((await stream(logs)).message_retention_days).toBeNull();
    expectError(await patch(logs, { message_retention_days: -5 }, t.owner), 400, "Bad value for 'message_retention_days': -5", 'REQUEST_VARIABLE_INVALID', {
      var_name: 'message_retention_days',
      bad_value: -5,
    });
  });

  it('archives with DELETE and unarchives with PATCH only', async () => {
    const { old } = await createChannels(t, ['old'], { as: member });
    expectError(await patch(old, { is_archived: true }), 400, 'Channels are archived with DELETE /streams/{stream_id}');
    expectError(await patch(old, { is_archived: false }), 400, 'Channel is not currently deactivated');
    expectError(await t.delete(`streams/${old}`, { as: other }), 400, 'You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');
    expectSuccess(await t.delete(`streams/${old}`, { as: member }));
    expectError(await t.delete(`streams/${old}`, { as: member }), 400, 'Channel is already deactivated');
    expectError(await t.get(`streams/${old}`), 400, 'Invalid channel ID');
    const archived = (await t.get('streams', { query: { exclude_archived: false } })).body.streams.find((s: { stream_id: number }) => s.stream_id === old);
    expect(archived.is_archived).toBe(true);
    expect((await subscription(t, member, old)).is_archived).toBe(true); // subscriptions stay
    expectSuccess(await patch(old, { is_archived: false }));
    expect((await stream(old)).is_archived).toBe(false);
  });

  it('sets the topics policy from a plain string', async () => {
    const { policy } = await createChannels(t, ['policy'], { as: member });
    expectSuccess(await patch(policy, { topics_policy: 'disable_empty_topic' }, member));
    expect((await stream(policy)).topics_policy).toBe('disable_empty_topic');
    // The channel's creation notice sits in "channel events": a named topic, as in Zulip.
    expectError(
      await patch(policy, { topics_policy: 'empty_topic_only' }, member),
      400,
      'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
      'BAD_REQUEST',
      { empty_topic_display_name: 'general chat' },
    );
    const { quiet } = await createChannels(t, ['quiet'], { as: member, form: { topics_policy: JSON.stringify('empty_topic_only') } });
    expect((await stream(quiet)).topics_policy).toBe('empty_topic_only');
    expectSuccess(await patch(quiet, { topics_policy: 'empty_topic_only' }, member));
    expectError(await patch(policy, { topics_policy: 'bogus' }), 400, 'Invalid topics_policy');
  });

  it('puts channels in folders that exist', async () => {
    expectError(await t.post('channel_folders/create', { as: member, form: { name: 'f', description: '' } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    const created = await t.post('channel_folders/create', { as: admin, form: { name: 'Engineering', description: 'Eng' } });
    expectSuccess(created, { channel_folder_id: expect.any(Number) });
    const folderId = created.body.channel_folder_id;
    expectError(await t.post('channel_folders/create', { as: admin, form: { name: 'engineering', description: '' } }), 400, 'Channel folder name already in use');
    expectError(await t.post('channel_folders/create', { as: admin, form: { name: ' ', description: '' } }), 400, "Channel folder name can't be empty.");
    const folders = await t.get('channel_folders', { as: member });
    expect(folders.body.channel_folders).toEqual([
      {
        id: folderId,
        name: 'Engineering',
        description: 'Eng',
        rendered_description: '<p>Eng</p>',
        order: folderId,
        date_created: expect.any(Number),
        creator_id: admin.id,
        is_archived: false,
      },
    ]);
    const { policy } = await channelIds(t, ['policy']);
    expectSuccess(await patch(policy, { folder_id: folderId }));
    expect((await stream(policy)).folder_id).toBe(folderId);
    expectError(await patch(policy, { folder_id: 424242 }), 400, 'Invalid channel folder ID');
    expectSuccess(await patch(policy, { folder_id: null }));
    expect((await stream(policy)).folder_id).toBeNull();
  });
});

describe('permission settings', () => {
  it('updates with {new, old}, refusing a stale old value', async () => {
    const { perms } = await createChannels(t, ['perms'], { as: member });
    expectSuccess(await patch(perms, { can_send_message_group: { new: groups['role:moderators'], old: groups['role:everyone'] } }));
    expect((await stream(perms)).stream_post_policy).toBe(4);
    expectError(
      await patch(perms, { can_send_message_group: { new: groups['role:members'], old: groups['role:everyone'] } }),
      400,
      "'old' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
      { field_name: 'old' },
    );
    expectSuccess(await patch(perms, { can_send_message_group: { new: { direct_members: [], direct_subgroups: [groups['role:moderators']] } } }));
    expectSuccess(await patch(perms, { can_administer_channel_group: { new: { direct_members: [other.id, member.id], direct_subgroups: [] }, old: { direct_members: [member.id], direct_subgroups: [] } } }));
    expect((await stream(perms)).can_administer_channel_group).toEqual({ direct_members: [member.id, other.id], direct_subgroups: [] });
    expectSuccess(await patch(perms, { description: 'now other administers it too' }, other));
  });

  it.each([
    [{ can_remove_subscribers_group: { new: 424242 } }, 'Invalid user group'],
    [{ can_subscribe_group: { new: groups_everyone() } }, "'can_subscribe_group' setting cannot be set to 'role:everyone' group."],
    [{ can_send_message_group: { old: 1 } }, 'can_send_message_group["new"] field is missing: Field required'],
    [{ can_send_message_group: 5 }, 'can_send_message_group is not a dict'],
  ])('rejects %j', async (form, msg) => {
    const { perms } = await channelIds(t, ['perms']);
    const resolved = JSON.parse(JSON.stringify(form).replace('"__everyone__"', String(groups['role:everyone'])));
    expectError(await patch(perms, resolved), 400, msg);
  });

  it('needs content access to grant access, and the delete-policy permission for delete settings', async () => {
    const { locked } = await createChannels(t, ['locked'], { as: member, form: { invite_only: true } });
    expectError(await patch(locked, { can_subscribe_group: { new: groups['role:members'] } }), 400, 'Channel content access is required.');
    expectSuccess(await patch(locked, { can_send_message_group: { new: groups['role:members'] } }));
    expectError(await patch(locked, { can_delete_any_message_group: { new: groups['role:members'] } }, member), 400, 'Insufficient permission');
    expectSuccess(await patch(locked, { can_delete_any_message_group: { new: groups['role:members'] } }, admin));
  });

  it('changes nothing when a later part of the request fails', async () => {
    const { perms } = await channelIds(t, ['perms']);
    const before = await stream(perms);
    expectError(await patch(perms, { description: 'half-applied?', message_retention_days: 5 }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expect((await stream(perms)).description).toBe(before.description);
  });
});

function groups_everyone(): string {
  return '__everyone__';
}
