import { DataSource } from 'typeorm';
import type { ExportRecord, ExportSection } from '../../../src/admin/application/admin.ports.js';
import { TypeOrmExportSource } from '../../../src/admin/persistence/typeorm-export.source.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let ds: DataSource;
let source: TypeOrmExportSource;
let realmId: number;
let otherOwner: Account;
let member: Account;
let channelMessage: number;
let directMessage: number;

const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;

async function all(realm: number, batchSize: number): Promise<ExportRecord[]> {
  const out: ExportRecord[] = [];
  for await (const r of source.records(realm, batchSize)) out.push(r);
  return out;
}
const idsOf = (records: ExportRecord[], section: ExportSection) => records.filter((r) => r.section === section).map((r) => r.row.id);
const recordOf = (records: ExportRecord[], section: ExportSection, id: number) => records.find((r) => r.section === section && r.row.id === id)?.row;
const openTransactions = async (): Promise<number> =>
  (await ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`))[0].n;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  // The admin command line's module provides it; the HTTP server's does not: built on the app's pool.
  source = new TypeOrmExportSource(ds);
  otherOwner = await t.createOrganization('other');
  realmId = await realmOf(t.owner.id);
  member = await t.createUser({ fullName: 'Export Member' });
  const third = await t.createUser();
  const { exported } = await createChannels(t, ['exported'], { form: { principals: [t.owner.id, member.id] } });
  await ds.query(`UPDATE channels SET description = 'Words', rendered_description = '<p>Words</p>' WHERE id = $1`, [exported]);
  channelMessage = await sendToChannel(t, member, exported, 'topic', 'channel words');
  directMessage = await sendDirect(t, member, [t.owner.id, third.id], 'direct words');
  await sendToChannel(t, otherOwner, 'general', 'elsewhere', 'other organization');
});
afterAll(() => t.close());

describe('TypeOrmExportSource', () => {
  it('reads the organization section by section, each in id order, in batches of any size', async () => {
    const records = await all(realmId, 2);
    const sections = records.map((r) => r.section);
    expect([...new Set(sections)]).toEqual(['users', 'channels', 'subscriptions', 'messages']);
    const rank = sections.map((s) => ['users', 'channels', 'subscriptions', 'messages'].indexOf(s));
    expect(rank).toEqual([...rank].sort((a, b) => a - b));
    const expected = async (table: string) => (await ds.query(`SELECT id FROM ${table} WHERE realm_id = $1 ORDER BY id`, [realmId])).map((r: { id: number }) => r.id);
    expect(idsOf(records, 'users')).toEqual(await expected('users'));
    expect(idsOf(records, 'channels')).toEqual(await expected('channels'));
    expect(idsOf(records, 'subscriptions')).toEqual(await expected('subscriptions'));
    expect(idsOf(records, 'messages')).toEqual(await expected('messages'));
    // Batches of one, or larger than the organization, read the same records.
    expect(await all(realmId, 1)).toEqual(records);
    expect(await all(realmId, 10_000)).toEqual(records);
  });

  it('maps each section’s row as the import reads it back', async () => {
    const records = await all(realmId, 100);
    const [user] = await ds.query(`SELECT date_joined, timezone FROM users WHERE id = $1`, [member.id]);
    expect(recordOf(records, 'users', member.id)).toEqual({
      id: member.id,
      email: member.email,
      full_name: 'Export Member',
      role: 400,
      is_active: true,
      is_bot: false,
      is_system_bot: false,
      bot_type: null,
      date_joined: user.date_joined,
      timezone: user.timezone,
    });
    expect(user.date_joined).toBeInstanceOf(Date);

    const [channel] = await ds.query(`SELECT id, date_created FROM channels WHERE realm_id = $1 AND name = 'exported'`, [realmId]);
    expect(recordOf(records, 'channels', channel.id)).toEqual({
      id: channel.id,
      name: 'exported',
      description: 'Words',
      rendered_description: '<p>Words</p>',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      is_archived: false,
      date_created: channel.date_created,
    });

    const [sub] = await ds.query(`SELECT id, color FROM subscriptions WHERE user_id = $1 AND channel_id = $2`, [member.id, channel.id]);
    expect(recordOf(records, 'subscriptions', sub.id)).toEqual({
      id: sub.id,
      user_id: member.id,
      channel_id: channel.id,
      active: true,
      color: sub.color,
      is_muted: false,
      pin_to_top: false,
    });

    const [sent] = await ds.query(`SELECT date_sent, rendered_content FROM messages WHERE id = $1`, [channelMessage]);
    const flags = async (id: number) =>
      (await ds.query(`SELECT user_id, flags FROM user_messages WHERE message_id = $1 ORDER BY user_id`, [id])).map((r: { user_id: number; flags: number }) => [
        r.user_id,
        r.flags,
      ]);
    // A channel message has no direct_user_ids at all.
    expect(recordOf(records, 'messages', channelMessage)).toStrictEqual({
      id: channelMessage,
      sender_id: member.id,
      channel_id: channel.id,
      topic: 'topic',
      content: 'channel words',
      rendered_content: sent.rendered_content,
      date_sent: sent.date_sent,
      sending_client: expect.any(String),
      last_edit_time: null,
      user_flags: await flags(channelMessage),
    });
    const direct = recordOf(records, 'messages', directMessage);
    expect(direct).toMatchObject({ id: directMessage, channel_id: null, content: 'direct words', user_flags: await flags(directMessage) });
    const participants: number[] = (await ds.query(`SELECT user_id FROM user_messages WHERE message_id = $1 ORDER BY user_id`, [directMessage])).map(
      (r: { user_id: number }) => r.user_id,
    );
    expect(direct?.direct_user_ids).toEqual(participants);
    expect(participants).toHaveLength(3);
  });

  it('reads only the organization asked for', async () => {
    const otherRealm = await realmOf(otherOwner.id);
    const records = await all(otherRealm, 100);
    expect(idsOf(records, 'users')).toContain(otherOwner.id);
    expect(idsOf(records, 'users')).not.toContain(t.owner.id);
    expect(idsOf(records, 'messages')).not.toContain(channelMessage);
    const mine = await all(realmId, 100);
    for (const section of ['users', 'channels', 'subscriptions', 'messages'] as const) {
      expect(idsOf(mine, section).filter((id) => idsOf(records, section).includes(id))).toEqual([]);
    }
  });

  it('reads one snapshot: what is written meanwhile is not in it', async () => {
    const reader = source.records(realmId, 1)[Symbol.asyncIterator]();
    const first = await reader.next();
    expect(first.value?.section).toBe('users');
    const later = await sendToChannel(t, member, 'exported', 'topic', 'written meanwhile');
    const rest: ExportRecord[] = [];
    for (let r = await reader.next(); !r.done; r = await reader.next()) rest.push(r.value);
    expect(idsOf(rest, 'messages')).toContain(channelMessage);
    expect(idsOf(rest, 'messages')).not.toContain(later);
    expect(idsOf(await all(realmId, 100), 'messages')).toContain(later);
    expect(await openTransactions()).toBe(0);
  });

  it('ends its transaction when the reader stops early', async () => {
    for await (const r of source.records(realmId, 1)) {
      expect(r.section).toBe('users');
      expect(await openTransactions()).toBe(1);
      break;
    }
    expect(await openTransactions()).toBe(0);
  });
});
