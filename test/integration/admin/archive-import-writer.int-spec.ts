import { DataSource } from 'typeorm';
import type { ArchiveImportWriter } from '../../../src/admin/application/archive-import.ports.js';
import { TypeOrmArchiveImportWriter } from '../../../src/admin/persistence/typeorm-archive-import.writer.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { type Account, TestApp } from '../../support/test-app.js';

// The organization an import writes into is `target` (a fresh one, as the import makes); the root organization must stay untouched.
let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let rootId: number;
let owner: Account;

const writer = <T>(work: (w: ArchiveImportWriter) => Promise<T>): Promise<T> => uow.run((tx) => work(tx.archiveImport));
const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;

beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  owner = await t.createOrganization('target', 'Target.Owner@example.com');
  realmId = await realmOf(owner.id);
  rootId = await realmOf(t.owner.id);
});
afterAll(() => t.close());

/** A new channel of the target organization, written as the import writes one: its general channel's row under a new id and name. */
async function importedChannel(name: string): Promise<number> {
  const [general] = await ds.query(`SELECT * FROM channels WHERE realm_id = $1 AND name = 'general'`, [realmId]);
  const [id] = await writer((w) => w.allocateIds('channels', 1));
  await writer((w) => w.insertRows('channels', [{ ...general, id, name, first_message_id: null }]));
  return id;
}

/** New members of the target organization, written as the import writes users: its owner's row under new ids and addresses. */
async function importedUsers(n: number): Promise<number[]> {
  const ids = await writer((w) => w.allocateIds('users', n));
  const [template] = await ds.query(`SELECT * FROM users WHERE id = $1`, [owner.id]);
  const address = (id: number) => `imported${id}@example.com`;
  await writer((w) => w.insertRows('users', ids.map((id) => ({ ...template, id, email: address(id), delivery_email: address(id), api_key: `key${id}`, role: 400 }))));
  return ids;
}

describe('TypeOrmArchiveImportWriter', () => {
  it('is the archive import writer of the transaction', async () => {
    expect(await uow.run(async (tx) => tx.archiveImport)).toBeInstanceOf(TypeOrmArchiveImportWriter);
  });

  it('allocates increasing ids from a table’s sequence, and only for import tables', async () => {
    const ids = await writer((w) => w.allocateIds('realm_emoji', 3));
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
    expect((await writer((w) => w.allocateIds('realm_emoji', 1)))[0]).toBeGreaterThan(ids[2]);
    expect(await writer((w) => w.allocateIds('realm_emoji', 0))).toEqual([]);
    await expect(writer((w) => w.allocateIds('events' as 'users', 1))).rejects.toThrow('not an import table: events');
  });

  it('inserts rows in one statement, taking the columns of the first row the table has', async () => {
    const [a, b] = await writer((w) => w.allocateIds('realm_emoji', 2));
    await writer((w) =>
      w.insertRows('realm_emoji', [
        { id: a, realm_id: realmId, name: 'alpha', author_id: owner.id, file_name: 'a.png', not_a_column: 'ignored' },
        { id: b, realm_id: realmId, name: 'beta', author_id: null, file_name: null, is_animated: true },
      ]),
    );
    expect(await ds.query(`SELECT * FROM realm_emoji WHERE id = ANY($1) ORDER BY id`, [[a, b]])).toEqual([
      { id: a, realm_id: realmId, name: 'alpha', author_id: owner.id, file_name: 'a.png', is_animated: false, deactivated: false },
      // is_animated is not a column of the first row: the table's default.
      { id: b, realm_id: realmId, name: 'beta', author_id: null, file_name: null, is_animated: false, deactivated: false },
    ]);
    expect(await writer((w) => w.insertRows('realm_emoji', []))).toBeUndefined();
  });

  it('fails on a conflicting row unless told to skip conflicts', async () => {
    const [id] = await writer((w) => w.allocateIds('realm_emoji', 1));
    const row = { id, realm_id: realmId, name: 'once' };
    await writer((w) => w.insertRows('realm_emoji', [row]));
    await expect(writer((w) => w.insertRows('realm_emoji', [{ ...row, name: 'twice' }]))).rejects.toMatchObject({ code: '23505' });
    await writer((w) => w.insertRows('realm_emoji', [{ ...row, name: 'twice' }], { skipConflicts: true }));
    expect(await ds.query(`SELECT name FROM realm_emoji WHERE id = $1`, [id])).toEqual([{ name: 'once' }]);
  });

  it('updates the named columns (those the table has, never the id) of the rows by id', async () => {
    const [a, b] = await writer((w) => w.allocateIds('realm_emoji', 2));
    await writer((w) => w.insertRows('realm_emoji', [a, b].map((id) => ({ id, realm_id: realmId, name: `e${id}`, file_name: 'f.png' }))));
    await writer((w) =>
      w.updateRows(
        'realm_emoji',
        [
          { id: a, name: 'renamed', deactivated: true, file_name: null, nonsense: 1 },
          { id: b, name: 'also', deactivated: true, file_name: 'g.png' },
        ],
        ['id', 'name', 'file_name', 'nonsense'],
      ),
    );
    expect(await ds.query(`SELECT id, name, file_name, deactivated FROM realm_emoji WHERE id = ANY($1) ORDER BY id`, [[a, b]])).toEqual([
      { id: a, name: 'renamed', file_name: null, deactivated: false },
      { id: b, name: 'also', file_name: 'g.png', deactivated: false },
    ]);
    await writer((w) => w.updateRows('realm_emoji', [{ id: a, name: 'unchanged' }], ['nonsense']));
    expect(await ds.query(`SELECT name FROM realm_emoji WHERE id = $1`, [a])).toEqual([{ name: 'renamed' }]);
  });

  it('reads the organization’s users, system groups and channels by name', async () => {
    expect(await writer((w) => w.userIdByEmail(realmId, 'target.owner@EXAMPLE.com'))).toBe(owner.id);
    expect(await writer((w) => w.userIdByEmail(rootId, 'target.owner@example.com'))).toBeNull();

    const groups: { id: number; name: string }[] = await ds.query(`SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`, [realmId]);
    const systemGroups = await writer((w) => w.systemGroupIds(realmId));
    expect(systemGroups).toEqual(new Map(groups.map((g) => [g.name, g.id])));
    expect(systemGroups.get('role:everyone')).toEqual(expect.any(Number));
    expect([...(await writer((w) => w.systemGroupIds(rootId))).values()]).not.toContain(systemGroups.get('role:everyone'));

    const mixed = await importedChannel('Mixed Case');
    const channels = await writer((w) => w.channelIdsByName(realmId));
    expect(channels.get('mixed case')).toBe(mixed);
    expect(channels.has('Mixed Case')).toBe(false);
    const rootGeneral = (await ds.query(`SELECT id FROM channels WHERE realm_id = $1 AND name = 'general'`, [rootId]))[0].id;
    expect(channels.get('general')).not.toBe(rootGeneral);
  });

  it('gives every channel of the organization its recipient, once', async () => {
    const fresh = await importedChannel('no recipient yet');
    expect(await ds.query(`SELECT id FROM recipients WHERE type = 2 AND type_id = $1`, [fresh])).toEqual([]);
    const recipients = await writer((w) => w.channelRecipients(realmId));
    const stored: { type_id: number; id: number }[] = await ds.query(
      `SELECT r.type_id, r.id FROM recipients r JOIN channels c ON c.id = r.type_id WHERE r.type = 2 AND c.realm_id = $1`,
      [realmId],
    );
    expect(recipients).toEqual(new Map(stored.map((r) => [r.type_id, r.id])));
    expect(recipients.has(fresh)).toBe(true);
    const channelCount = (await ds.query(`SELECT count(*)::int AS n FROM channels WHERE realm_id = $1`, [realmId]))[0].n;
    expect(recipients.size).toBe(channelCount);
    expect(await writer((w) => w.channelRecipients(realmId))).toEqual(recipients);
  });

  it('creates the direct conversations of participant sets, reusing those that exist', async () => {
    const [u1, u2] = await importedUsers(2);
    const pair = [u2, u1, u2];
    const recipients = await writer((w) => w.directRecipients(realmId, [pair, [u1], [u1, u2]]));
    expect([...recipients.keys()].sort()).toEqual([`${u1}`, `${u1},${u2}`].sort());
    const groups: { participant_key: string; members: number[]; recipient: number }[] = await ds.query(
      `SELECT g.participant_key, array_agg(m.user_id ORDER BY m.user_id) AS members, r.id AS recipient
       FROM direct_message_groups g JOIN direct_message_group_members m ON m.group_id = g.id JOIN recipients r ON r.type = 3 AND r.type_id = g.id
       WHERE g.realm_id = $1 AND g.participant_key = ANY($2) GROUP BY g.participant_key, r.id ORDER BY g.participant_key`,
      [realmId, [...recipients.keys()]],
    );
    expect(groups).toEqual(
      [
        { participant_key: `${u1}`, members: [u1], recipient: recipients.get(`${u1}`) },
        { participant_key: `${u1},${u2}`, members: [u1, u2], recipient: recipients.get(`${u1},${u2}`) },
      ].sort((a, b) => a.participant_key.localeCompare(b.participant_key)),
    );
    expect(await writer((w) => w.directRecipients(realmId, [[u1, u2]]))).toEqual(new Map([[`${u1},${u2}`, recipients.get(`${u1},${u2}`)]]));
    expect(await writer((w) => w.directRecipients(realmId, []))).toEqual(new Map());
  });

  it('gives active subscribers the channel history they lack, sets first messages, and deletes the organization’s subscriptions', async () => {
    const channel = await importedChannel('history');
    const recipient = (await writer((w) => w.channelRecipients(realmId))).get(channel);
    const [member] = await importedUsers(1);
    await writer((w) =>
      w.insertRows('subscriptions', [
        { realm_id: realmId, user_id: owner.id, channel_id: channel, active: true, color: '#000000', is_muted: false, pin_to_top: false },
        { realm_id: realmId, user_id: member, channel_id: channel, active: false, color: '#000000', is_muted: false, pin_to_top: false },
      ]),
    );
    const ids = await writer((w) => w.allocateIds('messages', 2));
    const message = (id: number) => ({
      id,
      realm_id: realmId,
      sender_id: owner.id,
      recipient_id: recipient,
      channel_id: channel,
      topic: 't',
      content: 'c',
      rendered_content: '<p>c</p>',
      date_sent: '2020-01-01T00:00:00Z',
      sending_client: 'import',
    });
    await writer((w) => w.insertRows('messages', ids.map(message)));
    await writer((w) => w.insertRows('user_messages', [{ user_id: owner.id, message_id: ids[0], flags: 2 }]));

    await writer((w) => w.addSubscriberHistory(realmId));
    expect(await ds.query(`SELECT user_id, message_id, flags FROM user_messages WHERE message_id = ANY($1) ORDER BY message_id, user_id`, [ids])).toEqual([
      { user_id: owner.id, message_id: ids[0], flags: 2 },
      { user_id: owner.id, message_id: ids[1], flags: 1 },
    ]);

    await writer((w) => w.finishChannels(realmId));
    expect((await ds.query(`SELECT first_message_id FROM channels WHERE id = $1`, [channel]))[0].first_message_id).toBe(ids[0]);

    const subscriptions = async (realm: number) => (await ds.query(`SELECT count(*)::int AS n FROM subscriptions WHERE realm_id = $1`, [realm]))[0].n;
    const rootSubscriptions = await subscriptions(rootId);
    expect(rootSubscriptions).toBeGreaterThan(0);
    await writer((w) => w.deleteSubscriptions(realmId));
    expect(await subscriptions(realmId)).toBe(0);
    expect(await subscriptions(rootId)).toBe(rootSubscriptions);
  });
});
