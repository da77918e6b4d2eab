import pg from 'pg';
import { createChannels, systemGroups } from '../../support/channels.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let db: pg.Client;
let admin: Account;
let moderator: Account;
let member: Account;
let member2: Account;
let guest: Account;
let bot: Account;
let gone: Account;
let groups: Record<string, number>;
let ch: Record<string, number>;
let systemBotEmail: string;
const KEY = /^[a-z2-7]{24}$/;
const DAY = 86_400;

beforeAll(async () => {
  t = await TestApp.start();
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  // Accounts are older than the minimum age for inviting unless a test says otherwise.
  t.clock.current = new Date('2025-06-01T00:00:00Z');
  admin = await t.createUser({ role: 200, fullName: 'Admin' });
  moderator = await t.createUser({ role: 300, fullName: 'Moderator' });
  member = await t.createUser({ fullName: 'Member', email: 'member@example.com' });
  member2 = await t.createUser({ fullName: 'Member Two' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(member, 'inviter');
  gone = await t.createUser({ fullName: 'Gone', email: 'gone@example.com' });
  expectSuccess(await t.delete(`users/${gone.id}`));
  groups = await systemGroups(t);
  ch = await createChannels(t, ['lounge', 'archived']); // not 'general': an initial default channel of every organization
  Object.assign(ch, await createChannels(t, ['welcome'], { form: { is_default_stream: true } }));
  Object.assign(ch, await createChannels(t, ['secret'], { form: { invite_only: true } }));
  expectSuccess(await t.delete(`streams/${ch.archived}`));
  systemBotEmail = (await db.query(`SELECT email FROM users WHERE is_system_bot ORDER BY id LIMIT 1`)).rows[0].email;
  t.clock.current = new Date('2025-07-01T00:00:00Z');
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const invite = (as: Account | undefined, form: Record<string, unknown>) =>
  t.post('invites', { as, form: { stream_ids: [], ...form } });
const multiuse = (as: Account | undefined, form: Record<string, unknown> = {}) => t.post('invites/multiuse', { as, form });
const invites = async (as: Account) => (await t.get('invites', { as })).body.invites;
const outboxTo = async (email: string) =>
  (await db.query(`SELECT * FROM email_outbox WHERE to_address = $1 ORDER BY id`, [email])).rows;
const invitationRows = async (email: string) => (await db.query(`SELECT * FROM invitations WHERE email = $1 ORDER BY id`, [email])).rows;
const now = () => Math.floor(t.clock.now().getTime() / 1000);
const setRealm = (column: string, value: unknown) => t.sql(`UPDATE realms SET ${column} = $1 WHERE string_id = ''`, [value]);
const setRealmSetting = (setting: string, groupId: number) =>
  t.sql(`UPDATE realm_group_settings SET group_id = $1 WHERE setting = $2 AND realm_id = (SELECT id FROM realms WHERE string_id = '')`, [groupId, setting]);
const failed = (msg: string, errors: unknown[], sent: boolean, daily = false) => ({
  errors,
  sent_invitations: sent,
  license_limit_reached: false,
  daily_limit_reached: daily,
});

describe('POST /invites', () => {
  it('stores an invitation with an unguessable key and emails its link', async () => {
    expectSuccess(await invite(member, { invitee_emails: 'alice@example.com', stream_ids: [ch.lounge] }));
    const [row] = await invitationRows('alice@example.com');
    expect(row).toMatchObject({
      referred_by_id: member.id,
      invited_as: 400,
      channel_ids: [ch.lounge],
      group_ids: [],
      include_realm_default_subscriptions: false,
      notify_referrer_on_join: true,
      welcome_message_custom_text: null,
      status: 0,
    });
    expect(row.confirmation_key).toMatch(KEY);
    expect(row.expiry_date.getTime() - row.invited_at.getTime()).toBe(14_400 * 60_000);
    const [mail] = await outboxTo('alice@example.com');
    expect(mail).toMatchObject({ kind: 'invitation', subject: 'Member has invited you to join Demo Organization', sent_at: null });
    expect(mail.body).toContain('Member (member@example.com) wants you to join them on Demo Organization.');
    expect(mail.body).toContain(`<http://chat.example.com/accounts/do_confirm/${row.confirmation_key}>`);
  });

  it('parses comma- and newline-separated lists, named addresses and duplicates', async () => {
    expectSuccess(await invite(member, { invitee_emails: 'Bob Smith <bob@example.com>, carol@example.com\ndave@example.com,bob@example.com\n' }));
    for (const e of ['bob@example.com', 'carol@example.com', 'dave@example.com']) {
      expect(await invitationRows(e)).toHaveLength(1);
      expect(await outboxTo(e)).toHaveLength(1);
    }
  });

  it('records the requested terms', async () => {
    const devs = (await t.post('user_groups/create', { form: { name: 'devs', description: '', members: [] } })).body.group_id;
    // The owner created the group, so holds its can_add_members_group (administrators do not).
    expectError(await invite(admin, { invitee_emails: 'terms@example.com', group_ids: [devs] }), 400, 'Insufficient permission');
    expectSuccess(
      await invite(t.owner, {
        invitee_emails: 'terms@example.com',
        stream_ids: [ch.lounge, ch.welcome, ch.lounge],
        group_ids: [devs],
        invite_as: 300,
        invite_expires_in_minutes: 60,
        include_realm_default_subscriptions: true,
        notify_referrer_on_join: false,
        welcome_message_custom_text: 'Welcome aboard!',
      }),
    );
    const [row] = await invitationRows('terms@example.com');
    expect(row).toMatchObject({
      channel_ids: [ch.lounge, ch.welcome],
      group_ids: [devs],
      invited_as: 300,
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
      welcome_message_custom_text: 'Welcome aboard!',
    });
    expect(row.expiry_date.getTime() - row.invited_at.getTime()).toBe(3_600_000);
    expectSuccess(await invite(admin, { invitee_emails: 'forever@example.com', invite_expires_in_minutes: null, welcome_message_custom_text: '' }));
    expect(await invitationRows('forever@example.com')).toMatchObject([{ expiry_date: null, welcome_message_custom_text: '' }]);
  });

  it('allows inviting the same address again', async () => {
    expectSuccess(await invite(member2, { invitee_emails: 'twice@example.com' }));
    expectSuccess(await invite(member2, { invitee_emails: 'twice@example.com' }));
    const rows = await invitationRows('twice@example.com');
    expect(rows).toHaveLength(2);
    expect(rows[0].confirmation_key).not.toBe(rows[1].confirmation_key);
  });

  it('lets each role grant its own role and the ones below', async () => {
    const cases: [Account, number][] = [
      [t.owner, 100],
      [admin, 200],
      [moderator, 300],
      [member, 400],
      [member, 600],
    ];
    for (const [as, role] of cases) {
      expectSuccess(await invite(as, { invitee_emails: `role${role}-${as.id}@example.com`, invite_as: role }));
    }
    expect(await invitationRows(`role100-${t.owner.id}@example.com`)).toMatchObject([{ invited_as: 100 }]);
  });

  it.each([
    ['administrator', () => admin, 100, 'Must be an organization owner'],
    ['moderator', () => moderator, 100, 'Must be an organization owner'],
    ['moderator', () => moderator, 200, 'Must be an organization administrator'],
    ['member', () => member, 200, 'Must be an organization administrator'],
    ['member', () => member, 300, 'Insufficient permission'],
  ])('refuses a more privileged role (%s inviting as %i)', async (_n, as, role, msg) => {
    expectError(await invite(as(), { invitee_emails: 'privileged@example.com', invite_as: role }), 400, msg);
    expect(await invitationRows('privileged@example.com')).toEqual([]);
  });

  it('refuses guests and bots before reading parameters', async () => {
    expectError(await t.post('invites', { as: guest }), 400, 'Not allowed for guest users');
    expectError(await t.post('invites', { as: bot }), 400, 'This endpoint does not accept bot requests.');
  });

  it.each([
    [{ invitee_emails: 'x@example.com', invite_as: 10 }, 'Invalid invite_as: Value error, Not in the list of possible values'],
    [{ invitee_emails: 'x@example.com', invite_as: '"400"' }, 'invite_as is not an integer'],
    [{ invitee_emails: 'x@example.com', invite_expires_in_minutes: 1.5 }, 'invite_expires_in_minutes is not an integer'],
    [{ invitee_emails: 'x@example.com', invite_expires_in_minutes: 10_000_000_000 }, 'invite_expires_in_minutes is too large'],
    [{ invitee_emails: 'x@example.com', group_ids: 'x' }, 'group_ids is not valid JSON'],
    [{ invitee_emails: 'x@example.com', stream_ids: {} }, 'stream_ids is not a list'],
    [{ invitee_emails: 'x@example.com', notify_referrer_on_join: 'yes' }, 'notify_referrer_on_join is not valid JSON'],
    [{ invitee_emails: 'x@example.com', welcome_message_custom_text: 'w'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
    [{ invitee_emails: '' }, 'You must specify at least one email address.'],
    // The role check comes before the address list, the address list before the channels.
    [{ invitee_emails: '', invite_as: 100 }, 'Must be an organization owner'],
    [{ invitee_emails: '', stream_ids: [99_999] }, 'You must specify at least one email address.'],
  ])('refuses %j', async (form, msg) => {
    expectError(await invite(admin, form), 400, msg);
  });

  it('needs invitee_emails and stream_ids', async () => {
    expectError(await t.post('invites', { as: member, form: { stream_ids: [] } }), 400, "Missing 'invitee_emails' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'invitee_emails',
    });
    expectError(await t.post('invites', { as: member, form: { invitee_emails: 'a@example.com' } }), 400, "Missing 'stream_ids' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'stream_ids',
    });
  });

  it('follows can_invite_users_group', async () => {
    await setRealmSetting('can_invite_users_group', groups['role:administrators']);
    try {
      expectError(await invite(moderator, { invitee_emails: 'setting@example.com' }), 400, 'Insufficient permission');
      expectError(await invite(member, { invitee_emails: 'setting@example.com', invite_as: 200 }), 400, 'Insufficient permission');
      expectSuccess(await invite(admin, { invitee_emails: 'setting@example.com' }));
    } finally {
      await setRealmSetting('can_invite_users_group', groups['role:members']);
    }
  });

  describe('channels', () => {
    it.each([
      ['a missing channel', () => 99_999],
      ['an out-of-range channel id', () => 99_999_999_999],
      ['a private channel the inviter cannot read', () => ch.secret],
      ['an archived channel', () => ch.archived],
    ])('refuses %s', async (_n, id) => {
      expectError(await invite(member, { invitee_emails: 'chan@example.com', stream_ids: [ch.lounge, id()] }), 400, `Invalid channel ID ${id()}. No invites were sent.`);
      expect(await invitationRows('chan@example.com')).toEqual([]);
    });

    it('allows subscribers of a private channel', async () => {
      expectSuccess(await invite(t.owner, { invitee_emails: 'private@example.com', stream_ids: [ch.secret] }));
    });

    it('needs permission to subscribe others, except to default channels', async () => {
      await setRealmSetting('can_add_subscribers_group', groups['role:administrators']);
      try {
        expectError(
          await invite(member, { invitee_emails: 'subs@example.com', stream_ids: [ch.welcome, ch.lounge] }),
          400,
          'You do not have permission to subscribe other users to channels.',
        );
        expectSuccess(await invite(member, { invitee_emails: 'subs@example.com', stream_ids: [ch.welcome] }));
        expectSuccess(await invite(admin, { invitee_emails: 'subs2@example.com', stream_ids: [ch.lounge] }));
      } finally {
        await setRealmSetting('can_add_subscribers_group', groups['role:members']);
      }
    });
  });

  describe('groups', () => {
    let ownersGroup: number;
    let openGroup: number;
    beforeAll(async () => {
      ownersGroup = (await t.post('user_groups/create', { form: { name: 'owner-managed', description: '', members: [] } })).body.group_id;
      openGroup = (
        await t.post('user_groups/create', {
          form: { name: 'open', description: '', members: [], can_add_members_group: groups['role:members'] },
        })
      ).body.group_id;
    });

    it('needs a named, active, non-system group the inviter may add members to', async () => {
      expectError(await invite(member, { invitee_emails: 'g@example.com', group_ids: [99_999] }), 400, 'Invalid user group');
      expectError(await invite(member, { invitee_emails: 'g@example.com', group_ids: [99_999_999_999] }), 400, 'Invalid user group');
      expectError(await invite(t.owner, { invitee_emails: 'g@example.com', group_ids: [groups['role:members']] }), 400, 'Insufficient permission');
      expectError(await invite(member, { invitee_emails: 'g@example.com', group_ids: [openGroup, ownersGroup] }), 400, 'Insufficient permission');
      expectSuccess(await invite(member, { invitee_emails: 'g@example.com', group_ids: [openGroup] }));
      expectSuccess(await invite(t.owner, { invitee_emails: 'g2@example.com', group_ids: [ownersGroup, openGroup] }));
      const anonymous = (await db.query(`SELECT id FROM user_groups WHERE name IS NULL ORDER BY id LIMIT 1`)).rows[0].id;
      expectError(await invite(t.owner, { invitee_emails: 'g@example.com', group_ids: [anonymous] }), 400, 'Invalid user group');
      await db.query(`UPDATE user_groups SET deactivated = true WHERE id = $1`, [openGroup]);
      try {
        expectError(await invite(member, { invitee_emails: 'g@example.com', group_ids: [openGroup] }), 400, 'User group is deactivated.');
      } finally {
        await db.query(`UPDATE user_groups SET deactivated = false WHERE id = $1`, [openGroup]);
      }
    });

    it('lets can_manage_all_groups holders add to any group', async () => {
      await setRealmSetting('can_manage_all_groups', groups['role:members']);
      try {
        expectSuccess(await invite(member, { invitee_emails: 'g3@example.com', group_ids: [ownersGroup] }));
      } finally {
        await setRealmSetting('can_manage_all_groups', groups['role:owners']);
      }
    });
  });

  it('lets only administrators set a welcome message, checked after channels and groups', async () => {
    expectError(await invite(moderator, { invitee_emails: 'w@example.com', welcome_message_custom_text: '' }), 400, 'Must be an organization administrator');
    expectError(
      await invite(member, { invitee_emails: 'w@example.com', welcome_message_custom_text: 'hi', stream_ids: [99_999] }),
      400,
      'Invalid channel ID 99999. No invites were sent.',
    );
    expectSuccess(await invite(t.owner, { invitee_emails: 'w@example.com', welcome_message_custom_text: 'hi' }));
  });

  describe('addresses', () => {
    it('refuses everything when an address is invalid, listing existing accounts after', async () => {
      const res = await invite(member, { invitee_emails: `broken, member@EXAMPLE.com, new1@example.com, x@mailinator.com` });
      expectError(
        res,
        400,
        "Some emails did not validate, so we didn't send any invitations.",
        'INVITATION_FAILED',
        failed('', [
          ['broken', 'Invalid address.', false],
          ['x@mailinator.com', 'Please use your real email address.', false],
          ['member@EXAMPLE.com', 'Already has an account.', false],
        ], false),
      );
      expect(await invitationRows('new1@example.com')).toEqual([]);
      expect(await outboxTo('new1@example.com')).toEqual([]);
    });

    it('invites nobody when every address has an account', async () => {
      expectError(
        await invite(member, { invitee_emails: `member@example.com\n${gone.email}\n${systemBotEmail}` }),
        400,
        "We weren't able to invite anyone.",
        'INVITATION_FAILED',
        failed('', [
          ['member@example.com', 'Already has an account.', false],
          [gone.email, 'Account has been deactivated.', true],
          [systemBotEmail, 'Reserved for system bots.', false],
        ], false),
      );
    });

    it('invites the others and reports the existing accounts', async () => {
      expectError(
        await invite(member, { invitee_emails: 'member@example.com, new2@example.com' }),
        400,
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        'INVITATION_FAILED',
        failed('', [['member@example.com', 'Already has an account.', false]], true),
      );
      expect(await invitationRows('new2@example.com')).toHaveLength(1);
      expect(await outboxTo('new2@example.com')).toHaveLength(1);
    });

    it('keeps Zulip’s quirk: a trailing comma makes "nobody invited" report sent_invitations', async () => {
      expectError(
        await invite(member, { invitee_emails: 'member@example.com,' }),
        400,
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        'INVITATION_FAILED',
        failed('', [['member@example.com', 'Already has an account.', false]], true),
      );
      expectSuccess(await invite(member, { invitee_emails: ' , \n' }));
    });

    it('follows the organization’s allowed domains', async () => {
      await setRealm('emails_restricted_to_domains', true);
      const realmId = (await db.query(`SELECT id FROM realms WHERE string_id = ''`)).rows[0].id;
      await db.query(`INSERT INTO realm_domains (realm_id, domain, allow_subdomains) VALUES ($1, 'example.com', false)`, [realmId]);
      try {
        expectError(
          await invite(member, { invitee_emails: 'a@other.org, b+tag@example.com, c@eu.example.com, d@mailinator.com' }),
          400,
          "Some emails did not validate, so we didn't send any invitations.",
          'INVITATION_FAILED',
          failed('', [
            ['a@other.org', 'Outside your domain.', false],
            ['b+tag@example.com', 'Email addresses containing + are not allowed.', false],
            ['c@eu.example.com', 'Outside your domain.', false],
            ['d@mailinator.com', 'Outside your domain.', false],
          ], false),
        );
        await db.query(`UPDATE realm_domains SET allow_subdomains = true WHERE realm_id = $1`, [realmId]);
        expectSuccess(await invite(member, { invitee_emails: 'ok@example.com, c@eu.example.com' }));
      } finally {
        await setRealm('emails_restricted_to_domains', false);
        await db.query(`DELETE FROM realm_domains WHERE realm_id = $1`, [realmId]);
      }
    });

    it('accepts disposable addresses when the organization allows them', async () => {
      await setRealm('disallow_disposable_email_addresses', false);
      try {
        expectSuccess(await invite(member, { invitee_emails: 'someone@mailinator.com' }));
      } finally {
        await setRealm('disallow_disposable_email_addresses', true);
      }
    });
  });

  it('keeps new accounts of open organizations from inviting', async () => {
    const saved = t.clock.current;
    const fresh = await t.createUser({ fullName: 'Fresh' });
    await setRealm('invite_required', false);
    try {
      const res = await invite(fresh, { invitee_emails: 'fromfresh@example.com' });
      expectError(
        res,
        400,
        'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
        'INVITATION_FAILED',
        failed('', [], false),
      );
      expectSuccess(await invite(admin, { invitee_emails: 'fromadmin@example.com' }));
      t.clock.advance(3 * DAY);
      expectSuccess(await invite(fresh, { invitee_emails: 'fromfresh@example.com' }));
    } finally {
      await setRealm('invite_required', true);
      t.clock.current = saved;
    }
    const later = await t.createUser({ fullName: 'Fresh Two' });
    expectSuccess(await invite(later, { invitee_emails: 'fromfresh2@example.com' }));
  });

  it('accepts the parameters as multipart, as zulip-js sends them', async () => {
    const res = await t.post('invites', { as: member, multipart: { invitee_emails: 'multipart@example.com', stream_ids: [ch.lounge] } });
    expectSuccess(res);
    expect(await invitationRows('multipart@example.com')).toHaveLength(1);
  });
});

describe('POST /invites/multiuse', () => {
  it('is for administrators by default and returns a working link', async () => {
    expectError(await multiuse(member), 400, 'Insufficient permission');
    expectError(await multiuse(moderator), 400, 'Insufficient permission');
    const res = await multiuse(admin, { stream_ids: [ch.lounge], invite_expires_in_minutes: 120 });
    expectSuccess(res);
    const m = /^http:\/\/chat\.example\.com\/join\/([a-z2-7]{24})\/$/.exec(res.body.invite_link);
    expect(m).not.toBeNull();
    const [row] = (await db.query(`SELECT * FROM multiuse_invites WHERE confirmation_key = $1`, [m![1]])).rows;
    expect(row).toMatchObject({ referred_by_id: admin.id, invited_as: 400, channel_ids: [ch.lounge], status: 0 });
    expect(row.expiry_date.getTime() - row.date_created.getTime()).toBe(7_200_000);
    expect(Object.keys(res.body).sort()).toEqual(['invite_link', 'msg', 'result']);
  });

  it('takes the server default expiry, or never', async () => {
    const a = await multiuse(t.owner);
    const b = await multiuse(t.owner, { invite_expires_in_minutes: null, invite_as: 100, welcome_message_custom_text: 'Hi', include_realm_default_subscriptions: true });
    const key = (r: typeof a) => /join\/(\w+)\//.exec(r.body.invite_link)![1];
    const rows = (await db.query(`SELECT * FROM multiuse_invites WHERE confirmation_key = ANY($1) ORDER BY id`, [[key(a), key(b)]])).rows;
    expect(rows[0].expiry_date.getTime() - rows[0].date_created.getTime()).toBe(14_400 * 60_000);
    expect(rows[1]).toMatchObject({ expiry_date: null, invited_as: 100, welcome_message_custom_text: 'Hi', include_realm_default_subscriptions: true });
  });

  it('follows create_multiuse_invite_group and the role rules', async () => {
    await setRealmSetting('create_multiuse_invite_group', groups['role:members']);
    try {
      expectSuccess(await multiuse(member));
      expectSuccess(await multiuse(moderator, { invite_as: 300 }));
      expectError(await multiuse(member, { invite_as: 300 }), 400, 'Insufficient permission');
      expectError(await multiuse(moderator, { invite_as: 200 }), 400, 'Must be an organization administrator');
      expectError(await multiuse(admin, { invite_as: 100 }), 400, 'Must be an organization owner');
      expectError(await multiuse(member, { welcome_message_custom_text: 'x' }), 400, 'Must be an organization administrator');
      expectError(await multiuse(member, { stream_ids: [ch.secret] }), 400, `Invalid channel ID ${ch.secret}. No invites were sent.`);
      expectError(await multiuse(member, { group_ids: [99_999] }), 400, 'Invalid user group');
    } finally {
      await setRealmSetting('create_multiuse_invite_group', groups['role:administrators']);
    }
  });

  it('refuses a lifetime beyond what dates can hold', async () => {
    expectError(await multiuse(admin, { invite_expires_in_minutes: 10_000_000_000 }), 400, 'invite_expires_in_minutes is too large');
    expectError(await multiuse(admin, { invite_expires_in_minutes: -10_000_000_000 }), 400, 'invite_expires_in_minutes is too small');
  });

  it('refuses guests and bots', async () => {
    expectError(await multiuse(guest), 400, 'Not allowed for guest users');
    expectError(await multiuse(bot), 400, 'This endpoint does not accept bot requests.');
  });

  it('does not email anyone or count against the daily limit', async () => {
    const before = (await db.query(`SELECT count(*)::int AS n FROM email_outbox`)).rows[0].n;
    const sends = (await db.query(`SELECT count(*)::int AS n FROM invitation_sends`)).rows[0].n;
    expectSuccess(await multiuse(admin));
    expect((await db.query(`SELECT count(*)::int AS n FROM email_outbox`)).rows[0].n).toBe(before);
    expect((await db.query(`SELECT count(*)::int AS n FROM invitation_sends`)).rows[0].n).toBe(sends);
  });
});

describe('GET /invites', () => {
  let mine: number;
  let theirs: number;
  let link: string;
  let linkId: number;
  beforeAll(async () => {
    expectSuccess(await invite(moderator, { invitee_emails: 'listed@example.com', invite_expires_in_minutes: 30 }));
    mine = (await invitationRows('listed@example.com'))[0].id;
    expectSuccess(await invite(member2, { invitee_emails: 'other-listed@example.com', notify_referrer_on_join: false, invite_as: 600, invite_expires_in_minutes: null }));
    theirs = (await invitationRows('other-listed@example.com'))[0].id;
    link = (await multiuse(admin, { invite_expires_in_minutes: 30 })).body.invite_link;
    linkId = (await db.query(`SELECT id FROM multiuse_invites WHERE confirmation_key = $1`, [/join\/(\w+)\//.exec(link)![1]])).rows[0].id;
  });

  it('shows non-administrators their own pending invitations', async () => {
    const list = await invites(moderator);
    expect(list.every((i: { invited_by_user_id: number }) => i.invited_by_user_id === moderator.id)).toBe(true);
    expect(list.find((i: { id: number; is_multiuse: boolean }) => i.id === mine && !i.is_multiuse)).toEqual({
      id: mine,
      email: 'listed@example.com',
      invited_by_user_id: moderator.id,
      invited: now(),
      expiry_date: now() + 1800,
      invited_as: 400,
      is_multiuse: false,
      notify_referrer_on_join: true,
    });
    expect((await invites(member2)).find((i: { id: number }) => i.id === theirs)).toMatchObject({ expiry_date: null, invited_as: 600, notify_referrer_on_join: false });
    expect((await invites(member2)).some((i: { id: number; is_multiuse: boolean }) => i.id === mine && !i.is_multiuse)).toBe(false);
  });

  it('shows administrators everything pending, links included', async () => {
    for (const as of [admin, t.owner]) {
      const list = await invites(as);
      expect(list.filter((i: { is_multiuse: boolean }) => !i.is_multiuse).map((i: { id: number }) => i.id)).toEqual(expect.arrayContaining([mine, theirs]));
      expect(list.find((i: { id: number; is_multiuse: boolean }) => i.id === linkId && i.is_multiuse)).toEqual({
        id: linkId,
        link_url: link,
        invited_by_user_id: admin.id,
        invited: now(),
        expiry_date: now() + 1800,
        invited_as: 400,
        is_multiuse: true,
      });
    }
  });

  it('omits expired invitations', async () => {
    const saved = t.clock.current;
    try {
      t.clock.advance(1800);
      expect((await invites(admin)).some((i: { id: number; is_multiuse: boolean }) => i.id === mine && !i.is_multiuse)).toBe(true);
      t.clock.advance(1);
      const list = await invites(admin);
      expect(list.some((i: { id: number; is_multiuse: boolean }) => i.id === mine && !i.is_multiuse)).toBe(false);
      expect(list.some((i: { id: number; is_multiuse: boolean }) => i.id === linkId && i.is_multiuse)).toBe(false);
      expect(list.some((i: { id: number; is_multiuse: boolean }) => i.id === theirs && !i.is_multiuse)).toBe(true);
    } finally {
      t.clock.current = saved;
    }
  });

  it('refuses guests and bots', async () => {
    expectError(await t.get('invites', { as: guest }), 400, 'Not allowed for guest users');
    expectError(await t.get('invites', { as: bot }), 400, 'This endpoint does not accept bot requests.');
  });
});

describe('revoking and resending', () => {
  const inviteOne = async (as: Account, email: string, form: Record<string, unknown> = {}): Promise<number> => {
    expectSuccess(await invite(as, { invitee_emails: email, ...form }));
    return (await invitationRows(email)).at(-1).id;
  };
  const linkOf = async (as: Account, form: Record<string, unknown> = {}): Promise<number> => {
    const res = await multiuse(as, form);
    expectSuccess(res);
    return (await db.query(`SELECT id FROM multiuse_invites WHERE confirmation_key = $1`, [/join\/(\w+)\//.exec(res.body.invite_link)![1]])).rows[0].id;
  };

  it('lets the inviter revoke their own invitation, once', async () => {
    const id = await inviteOne(member, 'revoke-me@example.com');
    expectError(await t.delete(`invites/${id}`, { as: member2 }), 400, 'Must be an organization administrator');
    expectError(await t.delete(`invites/${id}`, { as: moderator }), 400, 'Must be an organization administrator');
    expectSuccess(await t.delete(`invites/${id}`, { as: member }));
    expect(await invitationRows('revoke-me@example.com')).toEqual([]);
    expect((await invites(member)).some((i: { id: number; is_multiuse: boolean }) => i.id === id && !i.is_multiuse)).toBe(false);
    expectError(await t.delete(`invites/${id}`, { as: member }), 400, 'No such invitation');
  });

  it('lets administrators revoke others’ invitations, and only owners owner invitations', async () => {
    const id = await inviteOne(member, 'admin-revokes@example.com');
    expectSuccess(await t.delete(`invites/${id}`, { as: admin }));
    const ownerInvite = await inviteOne(t.owner, 'future-owner@example.com', { invite_as: 100 });
    expectError(await t.delete(`invites/${ownerInvite}`, { as: admin }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.delete(`invites/${ownerInvite}`, { as: member }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await t.delete(`invites/${ownerInvite}`, { as: t.owner }));
    expectError(await t.delete('invites/999999', { as: admin }), 400, 'No such invitation');
  });

  it('revokes reusable links once, removing their key', async () => {
    const id = await linkOf(admin);
    expectError(await t.delete(`invites/multiuse/${id}`, { as: member }), 400, 'Must be an organization administrator');
    expectSuccess(await t.delete(`invites/multiuse/${id}`, { as: t.owner }));
    expect((await db.query(`SELECT status, confirmation_key FROM multiuse_invites WHERE id = $1`, [id])).rows[0]).toEqual({ status: 2, confirmation_key: null });
    expect((await invites(admin)).some((i: { id: number; is_multiuse: boolean }) => i.id === id && i.is_multiuse)).toBe(false);
    expectError(await t.delete(`invites/multiuse/${id}`, { as: admin }), 400, 'Invitation has already been revoked');
    // The role check comes first: someone else's revoked link is still refused for a member.
    expectError(await t.delete(`invites/multiuse/${id}`, { as: member }), 400, 'Must be an organization administrator');
    expectError(await t.delete('invites/multiuse/999999', { as: admin }), 400, 'No such invitation');
    const ownerLink = await linkOf(t.owner, { invite_as: 100 });
    expectError(await t.delete(`invites/multiuse/${ownerLink}`, { as: admin }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await t.delete(`invites/multiuse/${ownerLink}`, { as: t.owner }));
  });

  it('lets members revoke their own links', async () => {
    await setRealmSetting('create_multiuse_invite_group', groups['role:members']);
    try {
      const id = await linkOf(member);
      expectError(await t.delete(`invites/multiuse/${id}`, { as: member2 }), 400, 'Must be an organization administrator');
      expectSuccess(await t.delete(`invites/multiuse/${id}`, { as: member }));
    } finally {
      await setRealmSetting('create_multiuse_invite_group', groups['role:administrators']);
    }
  });

  it('resends the same link', async () => {
    const id = await inviteOne(member, 'resend-me@example.com');
    expectError(await t.post(`invites/${id}/resend`, { as: member2 }), 400, 'Must be an organization administrator');
    expectSuccess(await t.post(`invites/${id}/resend`, { as: member }));
    expectSuccess(await t.post(`invites/${id}/resend`, { as: admin }));
    const mails = await outboxTo('resend-me@example.com');
    expect(mails).toHaveLength(3);
    expect(new Set(mails.map((m: { body: string }) => m.body)).size).toBe(1);
    expect(mails[2].subject).toBe('Member has invited you to join Demo Organization');
    expectError(await t.post('invites/999999/resend', { as: admin }), 400, 'No such invitation');
    const ownerInvite = await inviteOne(t.owner, 'owner-resend@example.com', { invite_as: 100 });
    expectError(await t.post(`invites/${ownerInvite}/resend`, { as: admin }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await t.post(`invites/${ownerInvite}/resend`, { as: t.owner }));
  });

  it('refuses guests and bots', async () => {
    const id = await inviteOne(member, 'guarded@example.com');
    for (const [as, msg] of [
      [guest, 'Not allowed for guest users'],
      [bot, 'This endpoint does not accept bot requests.'],
    ] as const) {
      expectError(await t.delete(`invites/${id}`, { as }), 400, msg);
      expectError(await t.delete(`invites/multiuse/${id}`, { as }), 400, msg);
      expectError(await t.post(`invites/${id}/resend`, { as }), 400, msg);
    }
  });
});

describe('organizations', () => {
  it('keeps invitations, channels and groups of other organizations apart', async () => {
    const foreign = await t.createOrganization('invites-elsewhere');
    expectSuccess(await invite(member, { invitee_emails: 'home@example.com' }));
    const home = (await invitationRows('home@example.com'))[0].id;
    const homeLink = (await db.query(`SELECT id FROM multiuse_invites WHERE realm_id = (SELECT id FROM realms WHERE string_id = '') ORDER BY id DESC LIMIT 1`)).rows[0].id;

    expect(await invites(foreign)).toEqual([]);
    expectError(await t.delete(`invites/${home}`, { as: foreign }), 400, 'No such invitation');
    expectError(await t.post(`invites/${home}/resend`, { as: foreign }), 400, 'No such invitation');
    expectError(await t.delete(`invites/multiuse/${homeLink}`, { as: foreign }), 400, 'No such invitation');
    expectError(await invite(foreign, { invitee_emails: 'x@example.com', stream_ids: [ch.lounge] }), 400, `Invalid channel ID ${ch.lounge}. No invites were sent.`);
    expectError(await invite(foreign, { invitee_emails: 'x@example.com', group_ids: [groups['role:members']] }), 400, 'Invalid user group');

    // Accounts of the first organization are new people there.
    expectSuccess(await invite(foreign, { invitee_emails: 'member@example.com' }));
    const link = (await multiuse(foreign)).body.invite_link;
    expect(link).toMatch(/^http:\/\/invites-elsewhere\.chat\.example\.com\/join\/[a-z2-7]{24}\/$/);
    const mails = await outboxTo('member@example.com');
    expect(mails.at(-1).body).toContain('http://invites-elsewhere.chat.example.com/accounts/do_confirm/');
    const listed = await invites(foreign);
    expect(listed.map((i: { is_multiuse: boolean }) => i.is_multiuse).sort()).toEqual([false, true]);
    expect((await invites(admin)).some((i: { email?: string; invited_by_user_id: number }) => i.invited_by_user_id === foreign.id)).toBe(false);
  });
});
