import { DataSource } from 'typeorm';
import { EventQueues, WAKE_BATCH } from '../../../src/events/application/event-queues.js';
import { EnvelopeInterceptor } from '../../../src/shared/http/envelope.interceptor.js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * The queues a process answers are held in memory between polls (event-queues.ts): a client that
 * stays on the process costs no statement on its queue's row, the row is written back in one
 * checkpoint statement for all, and a poll the held state cannot answer (another `last_event_id`)
 * starts from the stored row and gives the same events with the same ids again.
 */
let t: TestApp;
let alice: Account;
let bob: Account;
let queues: EventQueues;
let counter: StatementCounter;

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  queues = t.app.get(EventQueues);
  counter = t.app.get(StatementCounter);
});
afterAll(() => t.close());

const dm = async (content: string) => {
  const res = await t.post('messages', { as: bob, form: { type: 'direct', to: JSON.stringify([alice.id]), content } });
  expectSuccess(res);
  return res.body.id as number;
};
const register = async () => {
  const res = await t.post('register', { as: alice, form: { event_types: ['message'] } });
  expectSuccess(res);
  return res.body.queue_id as string;
};
type Events = { id: number; type: string; message?: { id: number; content: string } }[];
/** Polls without blocking until the queue answers something (a commit reaches the journal's readers a moment later). */
const poll = async (queueId: string, lastEventId: number): Promise<Events> => {
  for (let attempt = 0; ; attempt++) {
    const res = await t.get('events', { as: alice, query: { queue_id: queueId, last_event_id: lastEventId, dont_block: true } });
    expectSuccess(res);
    if (res.body.events.length > 0 || attempt === 100) return res.body.events as Events;
    await new Promise((r) => setTimeout(r, 20));
  }
};
/** The statements a poll runs on the queues' table. */
async function queueStatements(run: () => Promise<unknown>): Promise<string[]> {
  counter.statements = [];
  try {
    await run();
    return counter.statements.filter((s) => s.includes('event_queues'));
  } finally {
    counter.statements = null;
  }
}
const stored = async (queueId: string) =>
  (await t.sql(`SELECT next_event_id, newest_discarded, jsonb_array_length(pending) AS pending, version FROM event_queues WHERE id = $1`, [queueId]))[0];

it('answers the polls of a client that stays on this process without reading or writing its queue row', async () => {
  const queueId = await register();
  const first = await dm('one');
  let events: Events = [];
  expect(await queueStatements(async () => (events = await poll(queueId, -1)))).toEqual([]);
  expect(events.map((e) => [e.id, e.message?.id])).toEqual([[0, first]]);
  const second = await dm('two');
  expect(await queueStatements(async () => (events = await poll(queueId, 0)))).toEqual([]);
  expect(events.map((e) => [e.id, e.message?.id])).toEqual([[1, second]]);
  // The checkpoint (every 2 s, or now) writes it back.
  await queues.checkpoint();
  expect(await stored(queueId)).toMatchObject({ next_event_id: 2, newest_discarded: 0, pending: 1 });
});

it('writes the checkpoint of many queues in one statement', async () => {
  const ids = [await register(), await register(), await register()];
  await dm('for all three');
  for (const id of ids) expect(await poll(id, -1)).toHaveLength(1);
  const query = vi.spyOn(t.app.get(DataSource), 'query');
  try {
    await queues.checkpoint();
    expect(query.mock.calls.filter(([sql]) => sql.includes('event_queues'))).toHaveLength(1);
  } finally {
    query.mockRestore();
  }
  for (const id of ids) expect(await stored(id)).toMatchObject({ next_event_id: 1, pending: 1 });
});

it('gives the same events with the same ids again when a poll starts from the stored row', async () => {
  const queueId = await register();
  const [registered] = await t.sql(`SELECT boundary::text AS boundary, snapshot FROM event_queues WHERE id = $1`, [queueId]);
  const sent = [await dm('a'), await dm('b'), await dm('c')];
  let first: Events = [];
  while (first.length < 3) first = [...first, ...(await poll(queueId, first.at(-1)?.id ?? -1))];
  expect(first.map((e) => [e.id, e.message?.id])).toEqual(sent.map((id, i) => [i, id]));
  // As if this process died before its checkpoint: the stored row is the registered one (its
  // version moved on, so this process's checkpoint of the queue is refused and it lets it go).
  await t.sql(
    `UPDATE event_queues SET boundary = $2::xid8, snapshot = $3, next_event_id = 0, newest_discarded = -1, pending = '[]', version = version + 1 WHERE id = $1`,
    [queueId, registered.boundary, registered.snapshot],
  );
  await queues.checkpoint();
  // A client that did not get the answer polls again with an older last_event_id: the stored row and the journal give the same events.
  const again = await poll(queueId, 0);
  expect(again).toEqual(first.slice(1));
  // And the held state continues from there.
  const d = await dm('d');
  expect((await poll(queueId, 2)).map((e) => [e.id, e.message?.id])).toEqual([[3, d]]);
});

it('stores a heartbeat before answering it: heartbeats are not in the journal', async () => {
  const queueId = await register();
  await queues.checkpoint();
  const before = await stored(queueId);
  const res = await t.get('events', { as: alice, query: { queue_id: queueId, last_event_id: -1 } });
  expectSuccess(res);
  expect(res.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  expect(await stored(queueId)).toMatchObject({ next_event_id: 1, pending: 1, version: before.version + 1 });
}, 20_000);

it('lets go of a queue deleted here, and answers its polls BAD_EVENT_QUEUE_ID', async () => {
  const queueId = await register();
  await poll(queueId, -1);
  expectSuccess(await t.delete('events', { as: alice, form: { queue_id: queueId } }));
  const res = await t.get('events', { as: alice, query: { queue_id: queueId, last_event_id: -1, dont_block: true } });
  expect(res.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
});

describe('GET /events before Express and the Nest pipeline (src/app/event-poll-route.ts)', () => {
  it('answers a plain poll without the interceptor chain, and leaves anything else to the route', async () => {
    const queueId = await register();
    const intercept = vi.spyOn(EnvelopeInterceptor.prototype, 'intercept');
    const routed = vi.spyOn(t.app.getHttpAdapter().getInstance() as unknown as { handle: () => void }, 'handle');
    try {
      const plain = await t.get('events', { as: alice, query: { queue_id: queueId, last_event_id: -1, dont_block: true } });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(plain.body).toEqual({ result: 'success', msg: '', events: [], queue_id: queueId });
      expect(intercept).not.toHaveBeenCalled();
      expect(routed).not.toHaveBeenCalled(); // not even Express saw it
      // A poll's own error is answered here too, through the exception filter.
      const gone = await t.get('events', { as: alice, query: { queue_id: 'gone', last_event_id: -1, dont_block: true } });
      expect({ status: gone.status, body: gone.body }).toEqual({ status: 400, body: { result: 'error', msg: 'Bad event queue ID: gone', queue_id: 'gone', code: 'BAD_EVENT_QUEUE_ID' } });
      expect(gone.headers['x-content-type-options']).toBe('nosniff');
      expect(routed).not.toHaveBeenCalled();
      // An unknown parameter: the route answers, with ignored_parameters_unsupported.
      const extra = await t.get('events', { as: alice, query: { queue_id: queueId, last_event_id: -1, dont_block: true, colour: 'red' } });
      expect(extra.body).toEqual({ result: 'success', msg: '', events: [], queue_id: queueId, ignored_parameters_unsupported: ['colour'] });
      expect(intercept).toHaveBeenCalledTimes(1);
      expect(routed).toHaveBeenCalledTimes(1);
    } finally {
      intercept.mockRestore();
      routed.mockRestore();
    }
    // Errors are the route's and the guard's, exactly.
    const unknown = await t.get('events', { as: alice, query: { queue_id: 'nope', last_event_id: -1, dont_block: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ result: 'error', msg: 'Bad event queue ID: nope', queue_id: 'nope', code: 'BAD_EVENT_QUEUE_ID' });
    const badKey = await t.get('events', { as: { ...alice, apiKey: 'x'.repeat(32) }, query: { queue_id: queueId, last_event_id: -1, dont_block: true } });
    expect(badKey.status).toBe(401);
    expect(badKey.body).toEqual({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
    const leadingZero = await t.get('events', { as: alice, query: { queue_id: queueId, last_event_id: '01', dont_block: true } });
    expect(leadingZero.status).toBe(400);
    // Another user's queue looks like one that does not exist.
    const bobs = await t.get('events', { as: bob, query: { queue_id: queueId, last_event_id: -1, dont_block: true } });
    expect(bobs.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, queue_id: queueId, code: 'BAD_EVENT_QUEUE_ID' });
  });
});

// Last in the file: passport's strategies are process-wide, so once a peer has started, this
// file's app authenticates through the peer's (closed only after every test).
describe('a pass that wakes many polls', () => {
  let peer: TestApp;
  beforeAll(async () => {
    // A server whose polls wait past the test's setup (its heartbeat is 60 s).
    peer = await t.startPeer({ EVENT_HEARTBEAT_SECONDS: '60' });
  });
  afterAll(() => peer.close());

  it('answers every poll it wakes, WAKE_BATCH per turn of the event loop', async () => {
    const immediate = vi.spyOn(globalThis, 'setImmediate');
    try {
      const perUser = 18;
      const users = await Promise.all(Array.from({ length: Math.ceil((WAKE_BATCH + 20) / perUser) }, (_, i) => t.createUser({ fullName: `Waker ${i}` })));
      const queueIds = await Promise.all(
        users.flatMap((u) =>
          Array.from({ length: perUser }, async () => {
            const res = await peer.post('register', { as: u, form: { event_types: ['realm'] } });
            expectSuccess(res);
            return { u, queueId: res.body.queue_id as string };
          }),
        ),
      );
      const polls = queueIds.map(({ u, queueId }) => peer.get('events', { as: u, query: { queue_id: queueId, last_event_id: -1 } }).then((r) => r));
      const peerQueues = peer.app.get(EventQueues);
      for (let i = 0; i < 500 && peerQueues.waitingPolls < queueIds.length; i++) await new Promise((r) => setTimeout(r, 10));
      expect(peerQueues.waitingPolls).toBe(queueIds.length);
      immediate.mockClear();
      expectSuccess(await t.patch('realm', { as: t.owner, form: { name: 'Woken in batches' } }));
      const answers = await Promise.all(polls);
      for (const res of answers) {
        expectSuccess(res);
        expect(res.body.events).toEqual([expect.objectContaining({ id: 0, type: 'realm', op: 'update', property: 'name', value: 'Woken in batches' })]);
      }
      // More than one batch: the rest waited for a later turn of the loop.
      expect(immediate.mock.calls.length).toBeGreaterThanOrEqual(Math.ceil(queueIds.length / WAKE_BATCH) - 1);
    } finally {
      immediate.mockRestore();
    }
  });
});

