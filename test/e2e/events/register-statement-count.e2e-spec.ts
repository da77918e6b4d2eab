import pg from 'pg';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { createChannels } from '../../support/channels.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /register's statements. After authentication and the event queue, the state is read in
 * one statement (settings version, user list version, the user's groups, channels and
 * subscriptions, messages, topics, …), the organization-wide sections coming from the settings
 * cache, and the user list from its own cache. Neither depends on how many users, channels or
 * subscribers the organization has.
 */
const STATE = {
  /** What `npm run bench` registers: realm_user and subscription. */
  bench: 1,
  /**
   * Every section, warm: the one read, the draft lists (drafts, saved snippets, reminders and
   * scheduled messages: one statement, concurrent with the read), realm_bots (its transaction:
   * 3), user_status, user settings, presence.
   */
  everything: 8,
  /**
   * The bench's sections after a settings change: the read, the realms row, the permission
   * settings, the system groups, the user groups as setting values (for the channels' settings).
   */
  benchAfterSettingsChange: 5,
  /** The bench's sections after a change of the user list: the read, and the list (users and profile data). */
  benchAfterUserListChange: 2,
};
/** Authentication (1, when the credential cache does not answer) and the queue (START, lock, DELETE of the oldest queues, INSERT, COMMIT). */
const AUTH_AND_QUEUE = 6;
const BENCH = { event_types: ['message'], fetch_event_types: ['realm_user', 'subscription'] };

let t: TestApp;
let counter: StatementCounter;
let member: Account;

beforeAll(async () => {
  t = await TestApp.start();
  counter = t.app.get(StatementCounter);
  member = await t.createUser();
  await createChannels(t, ['small', 'big', 'private'], { form: { principals: [member.id] } });
});
afterAll(() => t.close());

/**
 * A register's statements after the queue (from its one read on) and in all: authentication
 * and opening the queue are the event queues' (at most AUTH_AND_QUEUE; the credential cache
 * usually answers authentication without a statement).
 */
async function registerStatements(form: Record<string, unknown>, as: Account = member): Promise<number> {
  counter.statements = [];
  try {
    const res = await t.post('register', { as, form });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const start = counter.statements.findIndex((s) => /AS settings_version/.test(s));
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThanOrEqual(AUTH_AND_QUEUE);
    return counter.statements.length - start;
  } finally {
    counter.statements = null;
  }
}

async function addUsers(n: number, prefix: string): Promise<void> {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, role)
       SELECT 1, $2 || g || '@example.com', $2 || g || '@example.com', 'Bulk ' || g, md5($2 || g), 400 FROM generate_series(1, $1::int) AS g`,
      [n, prefix],
    );
    await c.query(
      `INSERT INTO subscriptions (realm_id, user_id, channel_id, color)
       SELECT 1, u.id, c.id, '#c2c2c2' FROM users u, channels c WHERE u.email LIKE $1 || '%' AND c.name = 'big'`,
      [prefix],
    );
  } finally {
    await c.end();
  }
}

describe('POST /register statements beyond authentication and the queue', () => {
  it('the bench register: one statement, with 10 or 500 more users', async () => {
    await addUsers(10, 'few');
    expectSuccess(await t.post('register', { as: member, form: BENCH })); // warms the caches
    expect(await registerStatements(BENCH)).toBe(STATE.bench);
    await addUsers(500, 'many');
    expectSuccess(await t.post('register', { as: member, form: BENCH }));
    expect(await registerStatements(BENCH)).toBe(STATE.bench);
  });

  it('every section', async () => {
    expectSuccess(await t.post('register', { as: member, form: {} }));
    expect(await registerStatements({})).toBe(STATE.everything);
  });

  it('after a settings change, and after a user list change', async () => {
    await t.sql(`UPDATE realms SET description = description || '.' WHERE id = 1`);
    expect(await registerStatements(BENCH)).toBe(STATE.benchAfterSettingsChange);
    expect(await registerStatements(BENCH)).toBe(STATE.bench);
    expectSuccess(await t.patch('settings', { as: member, form: { full_name: 'Renamed member' } }));
    expect(await registerStatements(BENCH)).toBe(STATE.benchAfterUserListChange);
    expect(await registerStatements(BENCH)).toBe(STATE.bench);
  });
});
