import { Channel, CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName } from '@app/domain/channels';
import { DataSource } from 'typeorm';
import type { NewChannel } from '../../../src/channels/application/channel.ports.js';
import { TypeOrmChannelQueries, TypeOrmChannelRepository } from '../../../src/channels/persistence/typeorm-channel.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { failure } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: TypeOrmChannelQueries;
let realmId: number;
let otherRealmId: number;
let other: Account;
/** The organization's system groups by name. */
let groups: Record<string, number>;
/** An anonymous group of the organization: the owner and the moderators group. */
let anonymous: number;

const now = new Date('2025-03-04T05:06:07.123Z');

const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;

beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  queries = new TypeOrmChannelQueries(ds);
  realmId = await realmOf(t.owner.id);
  other = await t.createOrganization('chanother');
  otherRealmId = await realmOf(other.id);
  const rows: { id: number; name: string }[] = await ds.query(`SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`, [realmId]);
  groups = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  [{ id: anonymous }] = await ds.query(
    `INSERT INTO user_groups (realm_id, name, description, is_system_group, deactivated) VALUES ($1, NULL, '', false, false) RETURNING id`,
    [realmId],
  );
  await ds.query(`INSERT INTO user_group_members (group_id, user_id, realm_id) VALUES ($1, $2, $3)`, [anonymous, t.owner.id, realmId]);
  await ds.query(`INSERT INTO user_group_subgroups (supergroup_id, subgroup_id, realm_id) VALUES ($1, $2, $3)`, [anonymous, groups['role:moderators'], realmId]);
});
afterAll(() => t.close());

/** Every setting held by `role:nobody`, but for the ones given. */
function groupIds(o: Partial<Record<ChannelGroupSettingName, number>> = {}, realmGroups = groups): Record<ChannelGroupSettingName, number> {
  return Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, o[s] ?? realmGroups['role:nobody']])) as Record<ChannelGroupSettingName, number>;
}

function newChannel(name: string, o: Partial<NewChannel> = {}): NewChannel {
  return {
    realmId,
    name,
    description: `About ${name}`,
    renderedDescription: `<p>About ${name}</p>`,
    inviteOnly: false,
    isWebPublic: false,
    historyPublicToSubscribers: true,
    messageRetentionDays: null,
    topicsPolicy: 'inherit',
    folderId: null,
    dateCreated: now,
    creatorId: t.owner.id,
    groupIds: groupIds(),
    ...o,
  };
}

const insert = (c: NewChannel) => uow.run((tx) => tx.channels.insert(c));
const ids = (channels: Channel[]) => channels.map((c) => c.id);

describe('TypeOrmChannelRepository', () => {
  it('inserts a channel and restores every column, named and anonymous group settings included', async () => {
    const id = await insert(
      newChannel('Restored', {
        inviteOnly: true,
        historyPublicToSubscribers: false,
        messageRetentionDays: 30,
        topicsPolicy: 'disable_empty_topic',
        groupIds: groupIds({ can_send_message_group: anonymous, can_administer_channel_group: groups['role:administrators'] }),
      }),
    );
    const channel = await uow.run((tx) => tx.channels.findById(realmId, id, true));
    expect(channel?.snapshot()).toEqual({
      id,
      realmId,
      name: 'Restored',
      description: 'About Restored',
      inviteOnly: true,
      isWebPublic: false,
      historyPublicToSubscribers: false,
      messageRetentionDays: 30,
      isArchived: false,
      folderId: null,
      topicsPolicy: 'disable_empty_topic',
      dateCreated: now,
      creatorId: t.owner.id,
      firstMessageId: null,
      groupSettings: {
        ...Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, groups['role:nobody']])),
        can_administer_channel_group: groups['role:administrators'],
        can_send_message_group: { directMembers: [t.owner.id], directSubgroups: [groups['role:moderators']] },
      },
    });
    expect(await uow.run((tx) => tx.channels.findById(otherRealmId, id))).toBeNull();
  });

  it('finds channels by ids and by names (case-insensitive), archived ones included, in id order, within the organization', async () => {
    const a = await insert(newChannel('Find A'));
    const b = await insert(newChannel('Find B'));
    const theirs = await insert(newChannel('Find C', { realmId: otherRealmId, creatorId: other.id, groupIds: groupIds({}, await systemGroupsOf(otherRealmId)) }));
    await ds.query(`UPDATE channels SET is_archived = true WHERE id = $1`, [b]);
    await uow.run(async (tx) => {
      expect(ids(await tx.channels.findByIds(realmId, [b, a, b, theirs]))).toEqual([a, b]);
      expect(await tx.channels.findByIds(realmId, [])).toEqual([]);
      expect(ids(await tx.channels.findByIdsOrNames(realmId, [b], ['FIND a', 'find c']))).toEqual([a, b]);
      expect(await tx.channels.findByIdsOrNames(realmId, [], [])).toEqual([]);
      expect(ids(await tx.channels.findByNames(realmId, ['find b', 'FIND A', 'Find C'], true))).toEqual([a, b]);
      expect(ids(await tx.channels.findByNames(otherRealmId, ['find c']))).toEqual([theirs]);
    });
  });

  it('tells whether a name is taken, case-insensitively, by another channel of the organization', async () => {
    const id = await insert(newChannel('Taken'));
    await uow.run(async (tx) => {
      expect(await tx.channels.nameTaken(realmId, 'TAKEN')).toBe(true);
      expect(await tx.channels.nameTaken(realmId, 'taken', id)).toBe(false);
      expect(await tx.channels.nameTaken(otherRealmId, 'taken')).toBe(false);
    });
  });

  it('reports a duplicate name lost to a concurrent writer as the rule it protects', async () => {
    await insert(newChannel('Racy'));
    const e = await failure(insert(newChannel('RACY')));
    expect([e.msg, e.code, e.data]).toEqual(["Channel 'racy' already exists", 'CHANNEL_ALREADY_EXISTS', { channel_name: 'racy' }]);
  });

  it('saves the columns and only the group settings it is given', async () => {
    const id = await insert(newChannel('Saved', { groupIds: groupIds({ can_send_message_group: anonymous }) }));
    await uow.run(async (tx) => {
      const c = (await tx.channels.findById(realmId, id, true))!;
      const changed = Channel.restore({
        ...c.snapshot(),
        name: 'Saved renamed',
        description: 'new',
        inviteOnly: true,
        isWebPublic: false,
        historyPublicToSubscribers: false,
        messageRetentionDays: -1,
        isArchived: true,
        topicsPolicy: 'allow_empty_topic',
      });
      await tx.channels.save(changed, '<p>new</p>', { can_resolve_topics_group: groups['role:moderators'] });
    });
    const record = await queries.channel(realmId, id);
    expect(record).toMatchObject({
      name: 'Saved renamed',
      description: 'new',
      renderedDescription: '<p>new</p>',
      inviteOnly: true,
      historyPublicToSubscribers: false,
      messageRetentionDays: -1,
      isArchived: true,
      topicsPolicy: 'allow_empty_topic',
    });
    expect(record?.groupSettings.can_resolve_topics_group).toBe(groups['role:moderators']);
    expect(record?.groupSettings.can_send_message_group).toEqual({ directMembers: [t.owner.id], directSubgroups: [groups['role:moderators']] });
  });

  it('lists the active channels among ids, leaving out archived, foreign and unstorable ones', async () => {
    const live = await insert(newChannel('Active live'));
    const archived = await insert(newChannel('Active archived'));
    await ds.query(`UPDATE channels SET is_archived = true WHERE id = $1`, [archived]);
    const theirs = await insert(newChannel('Active theirs', { realmId: otherRealmId, creatorId: other.id, groupIds: groupIds({}, await systemGroupsOf(otherRealmId)) }));
    expect(await uow.run((tx) => tx.channels.activeChannelIds(realmId, [live, archived, theirs, 2 ** 40]))).toEqual(new Set([live]));
    expect(await uow.run((tx) => tx.channels.activeChannelIds(realmId, [2 ** 40]))).toEqual(new Set());
  });

  it('adds and removes default channels of the organization', async () => {
    const a = await insert(newChannel('Default A'));
    const b = await insert(newChannel('Default B'));
    const before = await uow.run((tx) => tx.channels.defaultChannelIds(realmId));
    await uow.run(async (tx) => {
      await tx.channels.setDefault(realmId, [a, b], true);
      await tx.channels.setDefault(realmId, [a], true);
      await tx.channels.setDefault(otherRealmId, [a], false);
    });
    expect(await uow.run((tx) => tx.channels.defaultChannelIds(realmId))).toEqual(new Set([...before, a, b]));
    await ds.query(`UPDATE channels SET is_archived = true WHERE id = $1`, [b]);
    expect(await queries.defaultChannelIds(realmId)).toEqual([...before, a].sort((x, y) => x - y));
    await uow.run((tx) => tx.channels.setDefault(realmId, [a, b], false));
    expect(await uow.run((tx) => tx.channels.defaultChannelIds(realmId))).toEqual(new Set(before));
    expect(await uow.run((tx) => tx.channels.defaultChannelIds(otherRealmId))).not.toContain(a);
  });

  it('sets a topic visibility policy, reporting whether anything changed, and lists muted topics', async () => {
    const u = await t.createUser();
    const c = await insert(newChannel('Topics'));
    const archived = await insert(newChannel('Topics archived'));
    const later = new Date(now.getTime() + 1000);
    const set = (channelId: number, topic: string, policy: number | null, at = now) =>
      uow.run((tx) => tx.channels.setTopicVisibility(realmId, u.id, channelId, topic, policy, at));
    expect(await set(c, 'Lunch', 1)).toBe(true);
    expect(await set(c, 'LUNCH', 1, later)).toBe(false);
    expect(await set(c, 'dinner', 2)).toBe(true);
    expect(await set(c, 'breakfast', 1, later)).toBe(true);
    expect(await set(archived, 'gone', 1)).toBe(true);
    await ds.query(`UPDATE channels SET is_archived = true WHERE id = $1`, [archived]);
    const quiet = await t.createUser();
    expect(await uow.run((tx) => tx.channels.mutedTopics([u.id, quiet.id]))).toEqual(
      new Map([
        [
          u.id,
          [
            ['Topics', 'Lunch', now],
            ['Topics', 'breakfast', later],
          ],
        ],
        [quiet.id, []],
      ]),
    );
    expect(await set(c, 'lunch', 2)).toBe(true);
    expect(await set(c, 'Lunch', null)).toBe(true);
    expect(await set(c, 'Lunch', null)).toBe(false);
    expect((await uow.run((tx) => tx.channels.mutedTopics([u.id]))).get(u.id)).toEqual([['Topics', 'breakfast', later]]);
    expect(await uow.run((tx) => tx.channels.mutedTopics([]))).toEqual(new Map());
  });

  it('keeps the first email token of a (channel, creator, sender)', async () => {
    const c = await insert(newChannel('Mailed'));
    const first = await uow.run((tx) => tx.channels.emailToken(realmId, c, t.owner.id, t.owner.id, 'token-one', now));
    const second = await uow.run((tx) => tx.channels.emailToken(realmId, c, t.owner.id, t.owner.id, 'token-two', now));
    expect([first, second]).toEqual(['token-one', 'token-one']);
  });

  it('tells whether a channel has messages outside the empty topic', async () => {
    const c = await insert(newChannel('Empty topics'));
    const [{ id: recipient }] = await ds.query(`INSERT INTO recipients (realm_id, type, type_id) VALUES ($1, 2, $2) RETURNING id`, [realmId, c]);
    const has = () => uow.run((tx) => tx.channels.hasMessagesOutsideEmptyTopic(c));
    expect(await has()).toBe(false);
    const add = (topic: string) =>
      ds.query(
        `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client)
         VALUES ($1, $2, $3, $4, $5, 'x', '<p>x</p>', $6, 'test')`,
        [realmId, t.owner.id, recipient, c, topic, now],
      );
    await add('');
    expect(await has()).toBe(false);
    await add('a topic');
    expect(await has()).toBe(true);
  });
});

async function systemGroupsOf(realm: number): Promise<Record<string, number>> {
  const rows: { id: number; name: string }[] = await ds.query(`SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`, [realm]);
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

async function subscribe(userId: number, channelId: number, active = true): Promise<void> {
  await ds.query(
    `INSERT INTO subscriptions (realm_id, user_id, channel_id, active, color, is_muted, pin_to_top)
     SELECT realm_id, id, $2, $3, '#c2c2c2', false, false FROM users WHERE id = $1`,
    [userId, channelId, active],
  );
}

describe('TypeOrmChannelQueries', () => {
  it('reads channels with their rendered description, active subscriber count and default flag, by name', async () => {
    const zeta = await insert(newChannel('Q zeta', { groupIds: groupIds({ can_subscribe_group: anonymous }) }));
    const alpha = await insert(newChannel('Q alpha'));
    const [a, b, gone] = [await t.createUser(), await t.createUser(), await t.createUser()];
    await subscribe(a.id, zeta);
    await subscribe(b.id, zeta, false);
    await subscribe(gone.id, zeta);
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [gone.id]);
    await uow.run((tx) => tx.channels.setDefault(realmId, [zeta], true));
    const [record] = await queries.channelsByIds(realmId, [zeta]);
    expect(record).toEqual({
      id: zeta,
      realmId,
      name: 'Q zeta',
      description: 'About Q zeta',
      renderedDescription: '<p>About Q zeta</p>',
      inviteOnly: false,
      isWebPublic: false,
      historyPublicToSubscribers: true,
      messageRetentionDays: null,
      isArchived: false,
      folderId: null,
      topicsPolicy: 'inherit',
      dateCreated: now,
      creatorId: t.owner.id,
      firstMessageId: null,
      groupSettings: {
        ...Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, groups['role:nobody']])),
        can_subscribe_group: { directMembers: [t.owner.id], directSubgroups: [groups['role:moderators']] },
      },
      subscriberCount: 1,
      isDefault: true,
    });
    expect(await queries.channel(realmId, alpha)).toMatchObject({ id: alpha, subscriberCount: 0, isDefault: false });
    expect(await queries.channel(otherRealmId, alpha)).toBeNull();
    const names = (await queries.channels(realmId)).map((c) => c.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['Q alpha', 'Q zeta']));
    expect((await queries.channels(otherRealmId)).map((c) => c.id)).not.toContain(zeta);
    expect(await queries.subscribers([zeta, alpha])).toEqual(
      new Map([
        [zeta, [a.id]],
        [alpha, []],
      ]),
    );
  });

  it('reads a user’s active and former subscriptions', async () => {
    const u = await t.createUser();
    const joined = await insert(newChannel('Subs joined'));
    const left = await insert(newChannel('Subs left'));
    await subscribe(u.id, joined);
    await subscribe(u.id, left, false);
    await ds.query(`UPDATE subscriptions SET desktop_notifications = true, is_muted = true WHERE user_id = $1 AND channel_id = $2`, [u.id, joined]);
    const base = { color: '#c2c2c2', pinToTop: false, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null };
    const mine = (subs: { channelId: number }[]) => subs.filter((s) => s.channelId === joined || s.channelId === left);
    expect(mine(await queries.subscriptionsOf(u.id))).toEqual([{ ...base, userId: u.id, channelId: joined, active: true, isMuted: true, desktopNotifications: true }]);
    expect(await queries.formerSubscriptionsOf(u.id)).toEqual([
      { ...base, userId: u.id, channelId: left, active: false, isMuted: false, desktopNotifications: null },
    ]);
  });

  it('lists the organization’s folders by order, then id', async () => {
    const add = (realm: number, name: string, order: number, archived = false) =>
      ds
        .query(
          `INSERT INTO channel_folders (realm_id, name, description, rendered_description, date_created, creator_id, "order", is_archived)
           VALUES ($1, $2, 'd', '<p>d</p>', $3, $4, $5, $6) RETURNING id`,
          [realm, name, now, realm === realmId ? t.owner.id : null, order, archived],
        )
        .then((r: { id: number }[]) => r[0].id);
    const second = await add(realmId, 'Second', 2);
    const first = await add(realmId, 'First', 1, true);
    await add(otherRealmId, 'Theirs', 0);
    expect(await queries.folders(realmId)).toEqual([
      { id: first, name: 'First', description: 'd', renderedDescription: '<p>d</p>', order: 1, dateCreated: now, creatorId: t.owner.id, isArchived: true },
      { id: second, name: 'Second', description: 'd', renderedDescription: '<p>d</p>', order: 2, dateCreated: now, creatorId: t.owner.id, isArchived: false },
    ]);
  });

  it('reads the users, groups and settings that event recipients and permissions need', async () => {
    const u = await t.createUser({ role: 300 });
    const users = await queries.activeUsers(realmId);
    expect(users).toContainEqual({ id: u.id, role: 300 });
    expect(users).toContainEqual({ id: t.owner.id, role: 100 });
    expect(users.map((x) => x.id)).not.toContain(other.id);
    const names = await queries.systemGroupNames(realmId);
    expect(names.get(groups['role:nobody'])).toBe('role:nobody');
    expect([...names.values()]).toContain('role:moderators');
    expect(await queries.groupIdsOfUser(u.id)).toContain(groups['role:moderators']);
    const c = await insert(newChannel('Using groups', { groupIds: groupIds({ can_send_message_group: anonymous, can_resolve_topics_group: anonymous }) }));
    expect(await queries.channelsUsingGroups(realmId, [anonymous])).toContainEqual({
      channelId: c,
      settings: ['can_resolve_topics_group', 'can_send_message_group'],
    });
    expect(await queries.channelsUsingGroups(otherRealmId, [anonymous])).toEqual([]);
  });

  it('sees the uncommitted writes of its transaction when built within it', async () => {
    await uow.run(async (tx) => {
      const id = await tx.channels.insert(newChannel('Uncommitted'));
      expect(await tx.channelQueries.channel(realmId, id)).toMatchObject({ id, name: 'Uncommitted' });
    });
  });
});

describe(TypeOrmChannelRepository.name, () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.channels).toBeInstanceOf(TypeOrmChannelRepository));
  });
});
