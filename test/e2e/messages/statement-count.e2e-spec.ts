import { DataSource } from 'typeorm';
import pg from 'pg';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { CredentialCache } from '../../../src/users/application/credential-cache.js';
import { createChannels } from '../../support/channels.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Set-based SQL: the statements a request sends do not depend on how many users it touches.
 * 500 subscribers are inserted directly in SQL (the API would take a while to make them).
 */
/**
 * The statements each request cost before the domain-model refactor (issue 11): a change may
 * lower them, never raise them without saying so here.
 * Markdown (issue 12) adds one statement to each rendering (send, and the move notice): the
 * organization's linkifiers with its URL; channel and custom emoji names cost one more
 * statement each only when the content has such syntax.
 */
// subscribe: creating a channel includes the Notification Bot's creation notice (10 statements with its rendering).
// send (issue 14, at most 8): auth, BEGIN, the channel with its setting groups, everything else
// the rules read (sender, subscription, topic, recipient) in one statement, one INSERT of the
// message with its rows, the journal (one statement: no advisory lock, INSERT and NOTIFY
// together, so each request that journals events costs 2 fewer), COMMIT. The actor's permission
// context and the render settings come from the settings cache (warm here: no settings changed
// since the previous send).
// fetch (GET /messages in a topic, anchored at newest): auth, the narrow's channel and
// subscription (read outside a transaction: no BEGIN/COMMIT), the messages with their flags, and
// the rendering's senders, channel names and reactions.
const CEILING = { send: 7, flag: 7, move: 32, subscribe: 40, fetch: 7 };

let t: TestApp;
let counter: StatementCounter;
let big: number;
let member: Account;
beforeAll(async () => {
  t = await TestApp.start();
  counter = t.app.get(StatementCounter);
  member = await t.createUser();
  ({ big } = await createChannels(t, ['small', 'big']));
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
       SELECT 1, 'bulk' || g || '@example.com', 'bulk' || g || '@example.com', 'Bulk ' || g, md5(g::text), 400
       FROM generate_series(1, 500) AS g`,
    );
    await c.query(
      `INSERT INTO subscriptions (realm_id, user_id, channel_id, color)
       SELECT 1, id, $1, '#c2c2c2' FROM users WHERE email LIKE 'bulk%'`,
      [big],
    );
  } finally {
    await c.end();
  }
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'small' }, { name: 'big' }], principals: [member.id] } });
});
afterAll(() => t.close());

/**
 * `cold`: the organization's settings get a new version first, so the request loads them (the
 * settings cache): for requests compared after one that changed settings (creating a channel
 * stores its permission groups), which would otherwise find a warm cache and the other not.
 */
async function statements(request: () => Promise<{ status: number; body: unknown }>, cold = false): Promise<number> {
  if (cold) await t.sql(`UPDATE realms SET settings_version = settings_version WHERE id = 1`);
  // Each request counted authenticates with its statement (the credential cache would spare it to some).
  t.app.get(CredentialCache).all();
  const before = counter.count;
  const res = await request();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return counter.count - before;
}

describe('statements per request', () => {
  it('are the same sending to 1 or 500+ subscribers', async () => {
    // Warm both topics so both sends take the same path (existing topic).
    for (const to of ['small', 'big']) expectSuccess(await t.post('messages', { form: { type: 'stream', to, topic: 't', content: 'warm up' } }));
    const toSmall = await statements(() => t.post('messages', { form: { type: 'stream', to: 'small', topic: 't', content: 'hello @**all**' } }));
    const toBig = await statements(() => t.post('messages', { form: { type: 'stream', to: 'big', topic: 't', content: 'hello @**all**' } }));
    expect(toBig).toBe(toSmall);
    expect(toSmall).toBe(CEILING.send);
    // A plain message, a topic-wide and a channel-wide mention cost the same: the topic's senders
    // and the subscriber count are read only when mentioned, in the same statement.
    for (const content of ['plain', 'hey @**topic**']) {
      expect(await statements(() => t.post('messages', { form: { type: 'stream', to: 'big', topic: 't', content } }))).toBe(CEILING.send);
    }
    // A direct message to a conversation that exists.
    const dm = () => t.post('messages', { form: { type: 'direct', to: JSON.stringify([member.id]), content: 'dm' } });
    await dm();
    expect(await statements(dm)).toBe(CEILING.send);
    const c = new pg.Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      const { rows } = await c.query(
        `SELECT count(*)::int AS n FROM user_messages um JOIN messages m ON m.id = um.message_id
         WHERE m.channel_id = $1 AND m.content = 'hello @**all**'`,
        [big],
      );
      expect(rows[0].n).toBe(502); // 500 + the member + the sender
    } finally {
      await c.end();
    }
  });

  it('are the same fetching a topic of 1 or 100 messages, and none of them is BEGIN or COMMIT', async () => {
    const fetch = (topic: string) => () =>
      t.get('messages', { query: { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: big }, { operator: 'topic', operand: topic }]) } });
    for (let i = 0; i < 100; i++) expectSuccess(await t.post('messages', { form: { type: 'stream', to: 'big', topic: 'fetched', content: `m ${i}` } }));
    expectSuccess(await t.post('messages', { form: { type: 'stream', to: 'big', topic: 'single', content: 'one' } }));
    await fetch('fetched')(); // warm the settings cache
    const one = await statements(fetch('single'));
    counter.statements = [];
    const many = await statements(fetch('fetched'));
    const sent = counter.statements;
    counter.statements = null;
    expect(many).toBe(one);
    expect(many).toBe(CEILING.fetch);
    expect(sent.filter((x) => /^(START TRANSACTION|BEGIN|COMMIT)/.test(x))).toEqual([]);
  });

  it('are the same marking 1 or 500 messages read, and moving a topic of 1 or 500 messages', async () => {
    const send = (to: string, topic: string) => t.post('messages', { form: { type: 'stream', to, topic, content: 'x' } });
    const one = [(await send('small', 'one')).body.id];
    const many: number[] = [];
    for (let i = 0; i < 500; i++) many.push((await send('small', 'many')).body.id);
    const flagOne = await statements(() => t.post('messages/flags', { as: member, form: { messages: one, op: 'add', flag: 'read' } }));
    const flagMany = await statements(() => t.post('messages/flags', { as: member, form: { messages: many, op: 'add', flag: 'read' } }));
    expect(flagMany).toBe(flagOne);
    expect(flagOne).toBeLessThanOrEqual(CEILING.flag);
    const moveOne = await statements(() => t.patch(`messages/${one[0]}`, { form: { topic: 'one moved', propagate_mode: 'change_all' } }));
    const moveMany = await statements(() => t.patch(`messages/${many[0]}`, { form: { topic: 'many moved', propagate_mode: 'change_all' } }));
    expect(moveMany).toBe(moveOne);
    expect(moveOne).toBeLessThanOrEqual(CEILING.move);
  }, 120_000); // 500 sends through the API; a limit, not a speed target

  it('are the same subscribing 1 or 500 users', async () => {
    const ids = (await t.get('users')).body.members.map((m: { user_id: number }) => m.user_id).filter((id: number) => id !== t.owner.id);
    const oneUser = await statements(() => t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'fresh1' }], principals: [ids[0]] } }), true);
    const manyUsers = await statements(() => t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'fresh2' }], principals: ids.slice(0, 500) } }), true);
    expect(manyUsers).toBe(oneUser);
    expect(oneUser).toBeLessThanOrEqual(CEILING.subscribe);
  });

  it('are the same sending "subscribed you to" direct messages to 1 or 100 users, each getting theirs', async () => {
    const ids = (await t.get('users')).body.members
      .filter((m: { email: string }) => m.email.startsWith('bulk'))
      .map((m: { user_id: number }) => m.user_id);
    await createChannels(t, ['notice-one', 'notice-many']);
    const post = (name: string, principals: number[]) =>
      t.post('users/me/subscriptions', { form: { subscriptions: [{ name }], principals } });
    const one = await statements(() => post('notice-one', ids.slice(0, 1)), true);
    const many = await statements(() => post('notice-many', ids.slice(1, 101)), true);
    expect(many).toBe(one);
    // Each of the hundred has its own conversation with the bot and one unread message in it.
    const rows = await t.app.get(DataSource).query(
      `SELECT um.user_id, um.flags, m.content FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE m.content LIKE '%subscribed you to #**notice-many**.' AND um.user_id = ANY($1::int[])`,
      [ids.slice(1, 101)],
    );
    expect(rows).toHaveLength(100);
    expect(rows.every((r: { flags: number }) => (r.flags & 1) === 0)).toBe(true);
    const conversations = await t.app.get(DataSource).query(
      `SELECT count(DISTINCT recipient_id)::int AS n FROM messages WHERE content LIKE '%subscribed you to #**notice-many**.'`,
    );
    expect(conversations[0].n).toBe(100);
    // A second round reuses those conversations.
    await createChannels(t, ['notice-again']);
    expect(await statements(() => post('notice-again', ids.slice(1, 101)), true)).toBe(one);
    const reused = await t.app.get(DataSource).query(
      `SELECT count(DISTINCT recipient_id)::int AS n FROM messages WHERE content ~ 'subscribed you to #\\*\\*notice-(many|again)\\*\\*\\.$'`,
    );
    expect(reused[0].n).toBe(100);
  });
});
