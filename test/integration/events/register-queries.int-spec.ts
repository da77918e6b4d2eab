import { DataSource } from 'typeorm';
import { ChannelQueries } from '../../../src/channels/application/channel.ports.js';
import { RegisterQueries, type RegisterReadParts } from '../../../src/events/application/register-sections.js';
import { TypeOrmRegisterQueries } from '../../../src/events/persistence/typeorm-register.queries.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';

/** TypeOrmRegisterQueries: the one statement behind POST /register's per-user sections, and the organization's group-setting values. */
let t: TestApp;
let ds: DataSource;
let queries: TypeOrmRegisterQueries;
let realmId: number;
let otherRealmId: number;
let u: Account;
let ch: { reg: number; gone: number };
let m1: number;
let d1: number;
const muted = new Date('2025-03-04T05:06:07Z');
const followed = new Date('2025-03-05T00:00:00Z');

const ALL: RegisterReadParts = {
  groups: true,
  userListVersion: true,
  channels: true,
  subscriptions: true,
  maxMessageId: true,
  unreadLimit: 1000,
  starredLimit: 1000,
  userTopics: true,
  alertWords: true,
  mutedUsers: true,
  defaultChannels: true,
  recentConversationsLimit: 1000,
  onboardingSteps: true,
  defaultChannelGroups: true,
  navigationViews: true,
};
const NONE: RegisterReadParts = {
  ...ALL,
  ...Object.fromEntries(Object.entries(ALL).map(([k, v]) => [k, typeof v === 'boolean' ? false : null])),
} as RegisterReadParts;

async function fixtures(): Promise<void> {
  u = await t.createUser();
  const made = await createChannels(t, ['reg', 'gone']);
  ch = { reg: made.reg, gone: made.gone };
  await createChannels(t, ['reg', 'gone'], { as: u });
  await t.delete('users/me/subscriptions', { as: u, query: { subscriptions: ['gone'] } });
  m1 = await sendToChannel(t, undefined, 'reg', 'topic', 'hello');
  d1 = await sendDirect(t, undefined, [u.id], 'psst');
  await t.post('messages/flags', { as: u, form: { messages: [m1], op: 'add', flag: 'starred' } });
  await t.sql(`INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated) VALUES ($1, $2, $3, 'Topic', 3, $4)`, [
    realmId,
    u.id,
    ch.reg,
    followed,
  ]);
  await t.sql(`INSERT INTO alert_words (realm_id, user_id, word, lower_word) VALUES ($1, $3, 'Foo', 'foo'), ($1, $3, 'bar', 'bar'), ($2, $3, 'elsewhere', 'elsewhere')`, [
    realmId,
    otherRealmId,
    u.id,
  ]);
  await t.sql(`INSERT INTO muted_users (realm_id, user_id, muted_user_id, date_muted) VALUES ($1, $2, $3, $4)`, [realmId, u.id, t.owner.id, muted]);
  await t.sql(`INSERT INTO default_channels (channel_id, realm_id) VALUES ($1, $2)`, [ch.reg, realmId]);
  const [group] = await t.sql(`INSERT INTO default_channel_groups (realm_id, name, description) VALUES ($1, 'grp', 'd') RETURNING id`, [realmId]);
  await t.sql(`INSERT INTO default_channel_group_channels (group_id, channel_id) VALUES ($1, $2), ($1, $3)`, [group.id, ch.reg, ch.gone]);
  await t.sql(`INSERT INTO onboarding_steps (user_id, onboarding_step, seen_at) VALUES ($1, 'intro', now())`, [u.id]);
  await t.sql(`INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES ($1, 'inbox', true, NULL), ($1, 'narrow/x', false, 'X')`, [u.id]);
}

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  queries = t.app.get(RegisterQueries) as TypeOrmRegisterQueries;
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  const other = await t.createOrganization('other');
  otherRealmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [other.id]))[0].realm_id;
  await fixtures();
});
afterAll(() => t.close());

describe('TypeOrmRegisterQueries', () => {
  it("reads every asked part of the user's state, each in its record's shape", async () => {
    const read = await queries.read(u.id, realmId, ALL);
    const [versions] = await ds.query(
      `SELECT r.settings_version::text AS s, v.version::text AS u FROM realms r JOIN realm_user_list_versions v ON v.realm_id = r.id WHERE r.id = $1`,
      [realmId],
    );
    const groupIds = await t.app.get(UnitOfWork).run((tx) => tx.groups.groupIdsOfUser(u.id));
    const defaults = ((await ds.query(`SELECT channel_id FROM default_channels WHERE realm_id = $1 ORDER BY 1`, [realmId])) as { channel_id: number }[]).map(
      (r) => r.channel_id,
    );
    const sub = { userId: u.id, color: expect.stringMatching(/^#[0-9a-f]{6}$/i), isMuted: false, pinToTop: false };
    const defaultNotifications = { desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null };
    const mine = (s: { channelId: number }) => s.channelId === ch.reg || s.channelId === ch.gone; // new users also join the default channels
    expect({
      ...read,
      channels: [],
      subscriptions: read.subscriptions.filter(mine),
      formerSubscriptions: read.formerSubscriptions.filter(mine),
      unreadRows: read.unreadRows.filter((r) => r.id >= m1), recentConversations: read.recentConversations.slice(0, 1) }).toEqual({
      settingsVersion: Number(versions.s),
      userListVersion: Number(versions.u),
      groupIds,
      channels: [],
      subscriptions: [{ ...sub, channelId: ch.reg, active: true, ...defaultNotifications }],
      formerSubscriptions: [{ ...sub, channelId: ch.gone, active: false, ...defaultNotifications }],
      maxMessageId: d1,
      unreadRows: [
        { id: m1, flags: 2, channelId: ch.reg, topic: 'topic', senderId: t.owner.id, participants: null },
        { id: d1, flags: 0, channelId: null, topic: '', senderId: t.owner.id, participants: [t.owner.id, u.id].sort((a, b) => a - b) },
      ],
      starredIds: [m1],
      userTopics: [{ channelId: ch.reg, channelName: 'reg', topic: 'Topic', lastUpdated: followed, policy: 3 }],
      alertWords: ['Foo', 'bar'],
      mutedUsers: [{ id: t.owner.id, timestamp: muted.getTime() / 1000 }],
      defaultChannelIds: defaults,
      recentConversations: [{ max_message_id: d1, user_ids: [t.owner.id] }],
      seenOnboardingSteps: ['intro'],
      defaultChannelGroups: [{ id: expect.any(Number), name: 'grp', description: 'd', channelIds: [ch.gone, ch.reg] }],
      navigationViews: [
        { fragment: 'inbox', isPinned: true, name: null },
        { fragment: 'narrow/x', isPinned: false, name: 'X' },
      ],
    });
    expect(defaults).toContain(ch.reg);
  });

  it("reads the organization's channels as ChannelQueries does, their settings as group ids", async () => {
    const { channels } = await queries.read(u.id, realmId, { ...NONE, channels: true });
    const expected = await t.app.get(ChannelQueries).channels(realmId);
    expect(channels.map(({ groupSettingIds: _, ...c }) => c)).toEqual(expected.map(({ groupSettings: _, ...c }) => c));
    const [row] = await ds.query(`SELECT * FROM channels WHERE id = $1`, [ch.reg]);
    const reg = channels.find((c) => c.id === ch.reg)!;
    expect(Object.keys(reg.groupSettingIds).length).toBeGreaterThan(0);
    for (const [setting, id] of Object.entries(reg.groupSettingIds)) expect(id).toBe(row[`${setting}_id`]);
    expect(reg).toMatchObject({ realmId, name: 'reg', subscriberCount: 2, isDefault: true, dateCreated: row.date_created });
  });

  it('reads nothing but the versions when no part is asked for, and honours the limits', async () => {
    const none = await queries.read(u.id, realmId, NONE);
    expect({ ...none, settingsVersion: 0 }).toEqual({
      settingsVersion: 0,
      userListVersion: 0,
      groupIds: new Set(),
      channels: [],
      subscriptions: [],
      formerSubscriptions: [],
      maxMessageId: -1,
      unreadRows: [],
      starredIds: [],
      userTopics: [],
      alertWords: [],
      mutedUsers: [],
      defaultChannelIds: [],
      recentConversations: [],
      seenOnboardingSteps: [],
      defaultChannelGroups: [],
      navigationViews: [],
    });
    const limited = await queries.read(u.id, realmId, { ...NONE, unreadLimit: 1, starredLimit: 0, recentConversationsLimit: 1 });
    expect(limited.unreadRows).toHaveLength(1);
    expect(limited.starredIds).toEqual([]);
    expect(limited.recentConversations).toEqual([{ max_message_id: d1, user_ids: [t.owner.id] }]);
  });

  it("reads another organization's settings for its own users only", async () => {
    const read = await queries.read(u.id, otherRealmId, { ...NONE, alertWords: true, mutedUsers: true, channels: true, defaultChannelGroups: true });
    expect(read.alertWords).toEqual(['elsewhere']);
    expect(read.mutedUsers).toEqual([]);
    expect(read.defaultChannelGroups).toEqual([]);
    expect(read.channels.map((c) => c.id)).not.toContain(ch.reg);
    expect(read.channels.every((c) => c.realmId === otherRealmId)).toBe(true);
  });

  it("answers every group of the organization as a setting's value: named by id, anonymous by its contents", async () => {
    const [{ id: everyone }] = await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1 AND name = 'role:everyone'`, [realmId]);
    const anonymous = await t.app.get(UnitOfWork).run((tx) => tx.groupSettings.store(realmId, { directMembers: [u.id, t.owner.id], directSubgroups: [everyone] }));
    const values = await queries.groupSettingValues(realmId);
    expect(values.get(everyone)).toBe(everyone);
    expect(values.get(anonymous)).toEqual({ directMembers: [t.owner.id, u.id].sort((a, b) => a - b), directSubgroups: [everyone] });
    const otherGroups = (await ds.query(`SELECT id FROM user_groups WHERE realm_id = $1`, [otherRealmId])) as { id: number }[];
    expect(otherGroups.length).toBeGreaterThan(0);
    for (const g of otherGroups) expect(values.has(g.id)).toBe(false);
    const ownGroups = (await ds.query(`SELECT count(*)::int AS n FROM user_groups WHERE realm_id = $1`, [realmId]))[0].n;
    expect(values.size).toBe(ownGroups);
  });
});
