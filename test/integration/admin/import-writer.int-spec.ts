import { CHANNEL_GROUP_SETTING_NAMES } from '@app/domain/channels';
import { DataSource } from 'typeorm';
import type { ImportedMessage, ImportedSubscription, ImportWriter } from '../../../src/admin/application/admin.ports.js';
import { TypeOrmImportWriter } from '../../../src/admin/persistence/typeorm-import.writer.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
let otherOwner: Account;

const writer = <T>(work: (w: ImportWriter) => Promise<T>): Promise<T> => uow.run((tx) => work(tx.adminImport));
const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;
/** A record missing fields the export may leave out (the writer gives them defaults). */
const partial = <T>(fields: Partial<T>): T => fields as T;
const channelRecipient = async (channelId: number): Promise<number> =>
  (await ds.query(`SELECT id FROM recipients WHERE type = 2 AND type_id = $1`, [channelId]))[0].id;

beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  otherOwner = await t.createOrganization('other', 'other-owner@example.com');
  realmId = await realmOf(t.owner.id);
  otherRealmId = await realmOf(otherOwner.id);
});
afterAll(() => t.close());

describe('TypeOrmImportWriter', () => {
  it('is the import writer of the transaction', async () => {
    expect(await uow.run(async (tx) => tx.adminImport)).toBeInstanceOf(TypeOrmImportWriter);
  });

  it('finds users and channels by name, case-insensitively, in the organization only', async () => {
    const u = await t.createUser({ email: 'Found.Me@example.com' });
    const { Findable: channel } = await createChannels(t, ['Findable']);
    expect(await writer((w) => w.userIdByEmail(realmId, 'found.me@EXAMPLE.COM'))).toBe(u.id);
    expect(await writer((w) => w.userIdByEmail(otherRealmId, 'found.me@example.com'))).toBeNull();
    expect(await writer((w) => w.userIdByEmail(otherRealmId, 'Other-Owner@example.com'))).toBe(otherOwner.id);
    expect(await writer((w) => w.channelIdByName(realmId, 'fINDABLE'))).toBe(channel);
    expect(await writer((w) => w.channelIdByName(otherRealmId, 'findable'))).toBeNull();
    expect(await writer((w) => w.channelIdByName(realmId, 'missing'))).toBeNull();
  });

  it('sets the account state, keeping the join date when the export had none', async () => {
    const u = await t.createUser();
    const joined = new Date('2020-01-02T03:04:05Z');
    await writer((w) => w.setAccountState(u.id, { isActive: false, dateJoined: joined, timezone: 'Europe/Paris' }));
    const read = async () => (await ds.query(`SELECT is_active, date_joined, timezone FROM users WHERE id = $1`, [u.id]))[0];
    expect(await read()).toEqual({ is_active: false, date_joined: joined, timezone: 'Europe/Paris' });
    await writer((w) => w.setAccountState(u.id, { isActive: true, dateJoined: new Date('not a date'), timezone: '' }));
    expect(await read()).toEqual({ is_active: true, date_joined: joined, timezone: '' });
  });

  it('reads the permission groups of the organization’s general channel, by setting', async () => {
    const columns = CHANNEL_GROUP_SETTING_NAMES.map((n) => `${n}_id`).join(', ');
    const general = async (realm: number) => (await ds.query(`SELECT ${columns} FROM channels WHERE realm_id = $1 AND name = 'general'`, [realm]))[0];
    const expected = Object.fromEntries(Object.entries(await general(realmId)).map(([k, v]) => [k.replace(/_id$/, ''), v]));
    const ids = await writer((w) => w.channelGroupIds(realmId));
    expect(ids).toEqual(expected);
    expect(Object.keys(ids).sort()).toEqual([...CHANNEL_GROUP_SETTING_NAMES].sort());
    for (const v of Object.values(ids)) expect(typeof v).toBe('number');
    const other = await writer((w) => w.channelGroupIds(otherRealmId));
    expect(other.can_send_message_group).not.toBe(ids.can_send_message_group);
  });

  it('archives a channel', async () => {
    const { archivable } = await createChannels(t, ['archivable']);
    await writer((w) => w.setArchived(archivable));
    expect((await ds.query(`SELECT is_archived FROM channels WHERE id = $1`, [archivable]))[0].is_archived).toBe(true);
  });

  it('inserts a subscription with defaults for what the export left out, and updates one that exists', async () => {
    const u = await t.createUser();
    const { subbed } = await createChannels(t, ['subbed']);
    const read = async () =>
      ds.query(`SELECT realm_id, user_id, channel_id, active, color, is_muted, pin_to_top FROM subscriptions WHERE user_id = $1 AND channel_id = $2`, [
        u.id,
        subbed,
      ]);
    await writer((w) => w.upsertSubscription(realmId, partial<ImportedSubscription>({ user_id: u.id, channel_id: subbed })));
    expect(await read()).toEqual([{ realm_id: realmId, user_id: u.id, channel_id: subbed, active: true, color: '#c2c2c2', is_muted: false, pin_to_top: false }]);
    await writer((w) => w.upsertSubscription(realmId, { user_id: u.id, channel_id: subbed, active: false, color: '#ff0000', is_muted: true, pin_to_top: true }));
    expect(await read()).toEqual([{ realm_id: realmId, user_id: u.id, channel_id: subbed, active: false, color: '#ff0000', is_muted: true, pin_to_top: true }]);
  });

  it('inserts a message with its user_messages rows, and sets the channels’ first messages', async () => {
    const u = await t.createUser();
    const { imported } = await createChannels(t, ['imported']);
    const recipient = await channelRecipient(imported);
    const base = { sender_id: u.id, channel_id: imported, topic: 'old', content: 'hello', rendered_content: '<p>hello</p>', sending_client: 'zephyr' };
    const first = await writer((w) =>
      w.insertMessage(realmId, recipient, {
        ...base,
        id: 1,
        date_sent: '2019-05-06T07:08:09.000Z',
        last_edit_time: '2019-05-07T00:00:00.000Z',
        user_flags: [
          [u.id, 1],
          [t.owner.id, 3],
        ],
      }),
    );
    const [row] = await ds.query(
      `SELECT realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client, last_edit_time FROM messages WHERE id = $1`,
      [first],
    );
    expect(row).toEqual({
      realm_id: realmId,
      sender_id: u.id,
      recipient_id: recipient,
      channel_id: imported,
      topic: 'old',
      content: 'hello',
      rendered_content: '<p>hello</p>',
      date_sent: new Date('2019-05-06T07:08:09Z'),
      sending_client: 'zephyr',
      last_edit_time: new Date('2019-05-07T00:00:00Z'),
    });
    expect(await ds.query(`SELECT user_id, flags FROM user_messages WHERE message_id = $1 ORDER BY user_id`, [first])).toEqual(
      [
        { user_id: u.id, flags: 1 },
        { user_id: t.owner.id, flags: 3 },
      ].sort((a, b) => a.user_id - b.user_id),
    );

    const bare = partial<ImportedMessage>({ id: 2, sender_id: u.id, channel_id: imported, content: 'bare', date_sent: '2019-05-08T00:00:00.000Z', user_flags: [] });
    const second = await writer((w) => w.insertMessage(realmId, recipient, bare));
    expect(second).toBeGreaterThan(first);
    expect((await ds.query(`SELECT topic, rendered_content, sending_client, last_edit_time FROM messages WHERE id = $1`, [second]))[0]).toEqual({
      topic: '',
      rendered_content: '',
      sending_client: 'import',
      last_edit_time: null,
    });
    expect(await ds.query(`SELECT user_id FROM user_messages WHERE message_id = $1`, [second])).toEqual([]);

    const firstOf = async (c: number) => (await ds.query(`SELECT first_message_id FROM channels WHERE id = $1`, [c]))[0].first_message_id;
    const otherGeneral = (await ds.query(`SELECT id FROM channels WHERE realm_id = $1 AND name = 'general'`, [otherRealmId]))[0].id;
    await ds.query(`UPDATE channels SET first_message_id = NULL WHERE id = ANY($1)`, [[imported, otherGeneral]]);
    await writer((w) => w.finishChannels(realmId));
    // The channel's oldest message: the notice of its creation, or else the first imported one.
    const [{ oldest }] = await ds.query(`SELECT min(id) AS oldest FROM messages WHERE channel_id = $1`, [imported]);
    expect(oldest).toBeLessThanOrEqual(first);
    expect(await firstOf(imported)).toBe(oldest);
    expect(await firstOf(otherGeneral)).toBeNull();
  });
});
