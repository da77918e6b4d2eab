import pg from 'pg';
import { pino } from 'pino';
import { DataSource } from 'typeorm';
import { openDataSource } from '../../../src/app/database.providers.js';
import { EVENTS_CHANNEL } from '../../../src/shared/persistence/event-journal.js';
import { JournalSignal } from '../../../src/shared/persistence/journal-signal.js';
import { TestApp } from '../../support/test-app.js';

/** JournalSignal: after a COMMIT that journaled events, this process's listeners at once and the other processes by one NOTIFY. */
let t: TestApp;
let ds: DataSource;
let listener: pg.Client;
const notified: string[] = [];
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  listener = new pg.Client({ connectionString: t.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => notified.push(`${n.channel}:${n.payload}`));
  await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await t.close();
});

const silent = pino({ level: 'silent' });

describe('JournalSignal', () => {
  it('tells its listeners synchronously and the other processes by an empty NOTIFY', async () => {
    notified.length = 0;
    const signal = new JournalSignal(ds, silent);
    const calls: string[] = [];
    signal.onCommitted(() => calls.push('a'));
    signal.onCommitted(() => calls.push('b'));
    signal.committed();
    expect(calls).toEqual(['a', 'b']);
    await vi.waitFor(() => expect(notified).toEqual([`${EVENTS_CHANNEL}:`]));
  });

  it('folds the commits made while a NOTIFY is in flight into one more', async () => {
    notified.length = 0;
    const signal = new JournalSignal(ds, silent);
    let local = 0;
    signal.onCommitted(() => (local += 1));
    for (let i = 0; i < 10; i++) signal.committed();
    expect(local).toBe(10);
    await vi.waitFor(() => expect(notified.length).toBeGreaterThanOrEqual(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(notified.length).toBeLessThanOrEqual(2); // the first, and one for all the commits made meanwhile
  });

  it('only logs when the NOTIFY cannot be sent (the others catch up on their timer)', async () => {
    const closed = await openDataSource(t.databaseUrl);
    await closed.destroy();
    const debug: unknown[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void debug.push(JSON.parse(line)) });
    const signal = new JournalSignal(closed, logger);
    let local = 0;
    signal.onCommitted(() => (local += 1));
    signal.committed();
    expect(local).toBe(1);
    await vi.waitFor(() => expect(debug).toEqual([expect.objectContaining({ msg: expect.stringContaining('journal notification not sent') })]));
  });
});
