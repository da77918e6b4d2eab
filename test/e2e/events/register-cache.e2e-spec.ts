import { createChannels } from '../../support/channels.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /register serves the organization-wide sections (realm, users, user groups, linkifiers,
 * domains, playgrounds, custom emoji, custom profile fields, channel folders) from the settings
 * cache at the organization's settings version its read saw. Never stale: a change through one
 * server is in the very next register on it and on a second server sharing the database (the
 * version comes with the register's own read, so no notification needs to arrive first).
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const CAPS = { notification_settings_null: false, linkifier_url_template: true };

let a: TestApp;
let b: TestApp;
let member: Account;
let other: Account;

beforeAll(async () => {
  a = await TestApp.start();
  b = await a.startPeer();
  member = await a.createUser({ fullName: 'Member' });
  other = await a.createUser({ fullName: 'Other' });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- register answers, read field by field
type Body = Record<string, any>;
const register = async (on: TestApp, as: Account, sections: string[], form: Record<string, unknown> = {}): Promise<Body> => {
  const res = await on.post('register', { as, form: { fetch_event_types: sections, client_capabilities: CAPS, ...form } });
  expectSuccess(res);
  return res.body;
};
const version = async () => Number((await a.sql(`SELECT settings_version FROM realms WHERE id = 1`))[0].settings_version);
const person = (body: Body, id: number) => [...body.realm_users, ...body.realm_non_active_users].find((u: { user_id: number }) => u.user_id === id);

/** Registers on both servers (warming both caches), runs `change` through A, and hands both next registers to `check`. */
async function seenByNextRegister(sections: string[], change: () => Promise<unknown>, check: (body: Body) => void, as: Account = member) {
  await register(a, as, sections);
  await register(b, as, sections);
  await change();
  check(await register(a, as, sections));
  check(await register(b, as, sections));
}

describe('the next register on either server sees', () => {
  it('a user renamed, and their avatar, time zone and address visibility changed', async () => {
    await seenByNextRegister(
      ['realm_user'],
      async () => {
        expectSuccess(await a.patch(`users/${other.id}`, { form: { full_name: 'Renamed' } }));
        await a.sql(`UPDATE users SET avatar_version = avatar_version + 1, timezone = 'Asia/Tokyo' WHERE id = $1`, [other.id]);
      },
      (body) => expect(person(body, other.id)).toMatchObject({ full_name: 'Renamed', timezone: 'Asia/Tokyo', avatar_version: 2 }),
    );
    // Address visibility: only admins now; the member no longer sees it, the user still sees their own.
    await seenByNextRegister(
      ['realm_user'],
      () => a.sql(`UPDATE users SET email_address_visibility = 4 WHERE id = $1`, [other.id]),
      (body) => expect(person(body, other.id).delivery_email).toBeNull(),
    );
    expect(person(await register(b, other, ['realm_user']), other.id).delivery_email).toBe(other.email);
    expect((await register(b, other, ['realm_user'])).delivery_email).toBe(other.email);
  });

  it('a user deactivated, and a new user', async () => {
    const gone = await a.createUser({ fullName: 'Leaving' });
    await seenByNextRegister(
      ['realm_user'],
      async () => expectSuccess(await a.delete(`users/${gone.id}`)),
      (body) => {
        expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).not.toContain(gone.id);
        expect(body.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toContain(gone.id);
      },
    );
    let added: Account | undefined;
    await seenByNextRegister(
      ['realm_user'],
      async () => (added = await a.createUser({ fullName: 'Newcomer' })),
      (body) => expect(person(body, added!.id)).toMatchObject({ full_name: 'Newcomer' }),
    );
  });

  it('custom profile fields and their values', async () => {
    let fieldId = 0;
    await seenByNextRegister(
      ['custom_profile_fields'],
      async () => {
        const res = await a.post('realm/profile_fields', { form: { name: 'Team', field_type: 1 } });
        expectSuccess(res);
        fieldId = res.body.id;
      },
      (body) => expect(body.custom_profile_fields.map((f: { name: string }) => f.name)).toContain('Team'),
    );
    await seenByNextRegister(
      ['realm_user'],
      async () => expectSuccess(await a.patch('users/me/profile_data', { as: other, form: { data: [{ id: fieldId, value: 'Platform' }] } })),
      (body) => expect(person(body, other.id).profile_data).toEqual({ [fieldId]: { value: 'Platform', rendered_value: '<p>Platform</p>' } }),
    );
    await seenByNextRegister(
      ['realm_user', 'custom_profile_fields'],
      async () => expectSuccess(await a.delete(`realm/profile_fields/${fieldId}`)),
      (body) => {
        expect(person(body, other.id).profile_data).toEqual({});
        expect(body.custom_profile_fields.map((f: { name: string }) => f.name)).not.toContain('Team');
      },
    );
  });

  it('allowed domains, code playgrounds, custom emoji and channel folders', async () => {
    await seenByNextRegister(
      ['realm_domains'],
      async () => expectSuccess(await a.post('realm/domains', { form: { domain: 'example.net', allow_subdomains: false } })),
      (body) => expect(body.realm_domains).toEqual([{ domain: 'example.net', allow_subdomains: false }]),
    );
    await seenByNextRegister(
      ['realm_playgrounds'],
      async () => expectSuccess(await a.post('realm/playgrounds', { form: { name: 'Run', pygments_language: 'Rust', url_template: 'https://run.example.com/?c={code}' } })),
      (body) => expect(body.realm_playgrounds).toEqual([expect.objectContaining({ name: 'Run', pygments_language: 'Rust' })]),
    );
    await seenByNextRegister(
      ['realm_emoji'],
      async () => expectSuccess(await a.http.post('/api/v1/realm/emoji/party').auth(member.email, member.apiKey).attach('file', PNG, 'party.png')),
      (body) => expect(Object.values(body.realm_emoji)).toEqual([expect.objectContaining({ name: 'party', deactivated: false })]),
    );
    await seenByNextRegister(
      ['realm_emoji'],
      async () => expectSuccess(await a.delete('realm/emoji/party', { as: member })),
      (body) => expect(Object.values(body.realm_emoji)).toEqual([expect.objectContaining({ name: 'party', deactivated: true })]),
    );
    await seenByNextRegister(
      ['channel_folders'],
      async () => expectSuccess(await a.post('channel_folders/create', { form: { name: 'Projects', description: '' } })),
      (body) => expect(body.channel_folders).toEqual([expect.objectContaining({ name: 'Projects' })]),
    );
  });

  it('realm settings, linkifiers, user groups and the permissions they give', async () => {
    await seenByNextRegister(
      ['realm'],
      async () => expectSuccess(await a.patch('realm', { form: { name: 'Renamed Org' } })),
      (body) => expect(body.realm_name).toBe('Renamed Org'),
    );
    await seenByNextRegister(
      ['realm_linkifiers'],
      async () => expectSuccess(await a.post('realm/filters', { form: { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example.com/{id}' } })),
      (body) => expect(body.realm_linkifiers).toEqual([expect.objectContaining({ pattern: 'T-(?P<id>[0-9]+)' })]),
    );
    let groupId = 0;
    await seenByNextRegister(
      ['realm_user_groups'],
      async () => {
        const res = await a.post('user_groups/create', { form: { name: 'creators', description: 'd', members: [] } });
        expectSuccess(res);
        groupId = res.body.group_id;
      },
      (body) => expect(body.realm_user_groups.find((g: { name: string }) => g.name === 'creators')).toMatchObject({ members: [] }),
    );
    // Channel creation through the new group: the member gets the permission once they join it.
    expectSuccess(await a.patch('realm', { form: { can_create_public_channel_group: { new: groupId } } }));
    await seenByNextRegister(
      ['realm_user', 'realm_user_groups'],
      async () => expectSuccess(await a.post(`user_groups/${groupId}/members`, { form: { add: [member.id] } })),
      (body) => {
        expect(body.can_create_public_streams).toBe(true);
        expect(body.realm_user_groups.find((g: { name: string }) => g.name === 'creators').members).toEqual([member.id]);
      },
    );
  });

  it("a channel's permission settings through an anonymous group, and that group's members", async () => {
    const { secret } = await createChannels(a, ['secret'], { as: member, form: { invite_only: true } });
    const sees = (body: Body) => body.never_subscribed.some((c: { stream_id: number }) => c.stream_id === secret);
    expect(sees(await register(a, other, ['subscription']))).toBe(false);
    await seenByNextRegister(
      ['subscription'],
      async () => expectSuccess(await a.patch(`streams/${secret}`, { as: member, form: { can_subscribe_group: { new: { direct_members: [other.id], direct_subgroups: [] } } } })),
      (body) => {
        expect(sees(body)).toBe(true);
        expect(body.never_subscribed.find((c: { stream_id: number }) => c.stream_id === secret).can_subscribe_group).toEqual({ direct_members: [other.id], direct_subgroups: [] });
      },
      other,
    );
    // The group's member deactivated: the group shows without them.
    const extra = await a.createUser({ fullName: 'Extra' });
    expectSuccess(await a.patch(`streams/${secret}`, { as: member, form: { can_subscribe_group: { new: { direct_members: [other.id, extra.id], direct_subgroups: [] } } } }));
    await seenByNextRegister(
      ['subscription'],
      async () => expectSuccess(await a.delete(`users/${extra.id}`)),
      (body) => expect(body.never_subscribed.find((c: { stream_id: number }) => c.stream_id === secret).can_subscribe_group).toEqual({ direct_members: [other.id], direct_subgroups: [] }),
      other,
    );
  });

  it('channels (not cached): a new channel and a new subscriber count', async () => {
    await seenByNextRegister(
      ['subscription'],
      () => createChannels(a, ['fresh'], { as: member }),
      (body) => expect(body.never_subscribed.find((c: { name: string }) => c.name === 'fresh')).toMatchObject({ subscriber_count: 1 }),
      other,
    );
  });
});

describe('versions', () => {
  const listVersion = async () => Number((await a.sql(`SELECT version FROM realm_user_list_versions WHERE realm_id = 1`))[0].version);
  const bumps = async (read: () => Promise<number>, writes: string[]) => {
    for (const sql of writes) {
      const before = await read();
      await a.sql(sql);
      expect(await read(), sql).toBeGreaterThan(before);
    }
  };

  it('every write of the listed user fields or of profile field values gives the user list a new version, and leaves the settings version', async () => {
    await a.sql(`INSERT INTO custom_profile_fields (realm_id, name, field_type) VALUES (1, 'Listed', 1)`);
    const settings = await version();
    await bumps(listVersion, [
      `UPDATE users SET full_name = full_name || '.' WHERE id = ${other.id}`,
      `UPDATE users SET email = 'v' || email WHERE id = ${other.id}`,
      `UPDATE users SET delivery_email = upper(delivery_email) WHERE id = ${other.id}`,
      `UPDATE users SET timezone = 'UTC' WHERE id = ${other.id}`,
      `UPDATE users SET avatar_version = avatar_version + 1 WHERE id = ${other.id}`,
      `UPDATE users SET email_address_visibility = 1 WHERE id = ${other.id}`,
      `UPDATE users SET date_joined = date_joined - interval '1 day' WHERE id = ${other.id}`,
      `UPDATE users SET bot_owner_id = ${member.id} WHERE id = ${other.id}`,
      `INSERT INTO custom_profile_field_values (user_id, field_id, realm_id, value)
       SELECT ${other.id}, id, 1, 'x' FROM custom_profile_fields WHERE name = 'Listed'`,
      `UPDATE custom_profile_field_values SET value = 'y' WHERE user_id = ${other.id}`,
      `DELETE FROM custom_profile_field_values WHERE user_id = ${other.id}`,
    ]);
    expect(await version()).toBe(settings);
    // Activity (and role) change both: the permission settings read them too.
    await bumps(listVersion, [`UPDATE users SET is_active = false WHERE id = ${other.id}`, `UPDATE users SET is_active = true WHERE id = ${other.id}`]);
    // Other user columns change neither.
    const [list, settingsNow] = [await listVersion(), await version()];
    await a.sql(`UPDATE users SET api_key = md5(random()::text), enter_sends = NOT enter_sends WHERE id = ${other.id}`);
    expect(await listVersion()).toBe(list);
    expect(await version()).toBe(settingsNow);
  });

  it('every write of custom profile fields, domains, playgrounds, custom emoji and channel folders gives a new settings version', async () => {
    await bumps(version, [
      `INSERT INTO custom_profile_fields (realm_id, name, field_type) VALUES (1, 'Versioned', 1)`,
      `UPDATE custom_profile_fields SET ordering = ordering + 1 WHERE name = 'Versioned'`,
      `DELETE FROM custom_profile_fields WHERE name = 'Versioned'`,
      `INSERT INTO realm_domains (realm_id, domain, allow_subdomains) VALUES (1, 'versioned.example', false)`,
      `UPDATE realm_domains SET allow_subdomains = true WHERE domain = 'versioned.example'`,
      `DELETE FROM realm_domains WHERE domain = 'versioned.example'`,
      `INSERT INTO code_playgrounds (realm_id, name, pygments_language, url_template) VALUES (1, 'V', 'C', 'https://v.example/{code}')`,
      `DELETE FROM code_playgrounds WHERE name = 'V'`,
      `INSERT INTO realm_emoji (realm_id, name, file_name) VALUES (1, 'versioned', 'v.png')`,
      `UPDATE realm_emoji SET deactivated = true WHERE name = 'versioned'`,
      `DELETE FROM realm_emoji WHERE name = 'versioned'`,
      `INSERT INTO channel_folders (realm_id, name, date_created) VALUES (1, 'Versioned', now())`,
      `UPDATE channel_folders SET description = 'd' WHERE name = 'Versioned'`,
      `DELETE FROM channel_folders WHERE name = 'Versioned'`,
    ]);
  });
});
