import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { createChannels } from '../../support/channels.js';
import { sendToChannel } from '../../support/messages.js';
import { expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Set-based SQL for the reading endpoints: deleting a topic (its audience, its users'
 * visibility policies), marking a channel read and listing read receipts cost the same number
 * of statements for 1 user or message as for hundreds. Users, rows and policies are inserted
 * directly in SQL.
 */

let t: TestApp;
let counter: StatementCounter;
let ids: Record<string, number>;

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

beforeAll(async () => {
  t = await TestApp.start();
  counter = t.app.get(StatementCounter);
  ids = await createChannels(t, ['small', 'big']);
  await sql(
    `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
     SELECT 1, 'bulk' || g || '@example.com', 'bulk' || g || '@example.com', 'Bulk ' || g, md5(g::text), 400 FROM generate_series(1, 300) AS g`,
  );
  await sql(`INSERT INTO subscriptions (realm_id, user_id, channel_id, color) SELECT 1, id, $1, '#c2c2c2' FROM users WHERE email LIKE 'bulk%'`, [ids.big]);
});
afterAll(() => t.close());

async function statements(request: () => Promise<{ status: number; body: unknown }>): Promise<number> {
  const before = counter.count;
  const res = await request();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return counter.count - before;
}

/** A topic of `n` messages in the channel, every subscriber holding an unread row for each and a policy for the topic. */
async function topicOf(channel: 'small' | 'big', topic: string, n: number): Promise<void> {
  const seed = await sendToChannel(t, undefined, channel, topic, 'seed');
  const copies = await sql(
    `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client)
     SELECT realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client
     FROM messages, generate_series(2, $2) WHERE id = $1 RETURNING id`,
    [seed, n],
  );
  const messageIds = [seed, ...copies.map((r) => r.id as number)];
  await sql(
    `INSERT INTO user_messages (user_id, message_id, flags) SELECT s.user_id, m, 0 FROM subscriptions s, unnest($2::int[]) m
     WHERE s.channel_id = $1 ON CONFLICT DO NOTHING`,
    [ids[channel], messageIds],
  );
  await sql(
    `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
     SELECT 1, user_id, $1, $2, 1, now() FROM subscriptions WHERE channel_id = $1 ON CONFLICT DO NOTHING`,
    [ids[channel], topic],
  );
}

describe('statements per request', () => {
  it('are the same marking a channel read and listing read receipts for 1 or 300 users and messages', async () => {
    await topicOf('small', 'read me', 1);
    await topicOf('big', 'read me', 80);
    const small = await statements(() => t.post('mark_stream_as_read', { form: { stream_id: ids.small } }));
    const big = await statements(() => t.post('mark_stream_as_read', { form: { stream_id: ids.big } }));
    expect(big).toBe(small);
    const [lone] = await sql(`SELECT min(id) AS id FROM messages WHERE channel_id = $1 AND topic = 'read me'`, [ids.small]);
    const [crowded] = await sql(`SELECT min(id) AS id FROM messages WHERE channel_id = $1 AND topic = 'read me'`, [ids.big]);
    await sql(`UPDATE user_messages SET flags = flags | 1 WHERE message_id = ANY($1::int[])`, [[lone.id, crowded.id]]);
    const fewReaders = await statements(() => t.get(`messages/${lone.id}/read_receipts`));
    const manyReaders = await statements(() => t.get(`messages/${crowded.id}/read_receipts`));
    expect(manyReaders).toBe(fewReaders);
    expect((await t.get(`messages/${crowded.id}/read_receipts`)).body.user_ids).toHaveLength(300);
  });

  it('are the same deleting a one-message topic of one subscriber and a full batch of one with 300 subscribers and their policies', async () => {
    await topicOf('small', 'doomed', 1);
    await topicOf('big', 'doomed', 100);
    const small = await statements(() => t.post(`streams/${ids.small}/delete_topic`, { form: { topic_name: 'doomed' } }));
    const big = await statements(() => t.post(`streams/${ids.big}/delete_topic`, { form: { topic_name: 'doomed' } }));
    expect(big).toBe(small);
    expect(await sql(`SELECT 1 FROM user_topics WHERE topic_name = 'doomed'`)).toEqual([]);
    expectSuccess(await t.get(`users/me/${ids.big}/topics`), {
      topics: [
        { name: 'read me', max_id: expect.any(Number) },
        { name: 'channel events', max_id: expect.any(Number) },
      ],
    });
  });
});
