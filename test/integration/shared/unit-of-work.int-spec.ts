import { pino } from 'pino';
import { DataSource } from 'typeorm';
import { connectionViolations } from '../../../src/app/connection-guard.js';
import { openDataSource } from '../../../src/app/database.providers.js';
import { TypeOrmUnitOfWork } from '../../../src/app/typeorm-unit-of-work.js';
import { OrganizationSettingsCache } from '../../../src/shared/application/settings-cache.js';
import type { ClientEvent } from '../../../src/shared/application/client-event.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { EVENTS_CHANNEL } from '../../../src/shared/persistence/event-journal.js';
import { JournalSignal } from '../../../src/shared/persistence/journal-signal.js';
import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import pg from 'pg';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
});
afterAll(() => t.close());

const countGroups = async () => (await ds.query(`SELECT count(*)::int AS n FROM user_groups`))[0].n as number;
const event: ClientEvent = { realmId: 1, event: { type: 'test' }, userIds: [1] };
const journal = async () => (await ds.query(`SELECT payload FROM events ORDER BY xid, id`)) as { payload: ClientEvent }[];

describe('TypeOrmUnitOfWork', () => {
  it('rolls back every statement and drops the events when the work fails', async () => {
    const before = await countGroups();
    await expect(
      uow.run(async (tx) => {
        await tx.groupSettings.store(1, { directMembers: [t.owner.id], directSubgroups: [] });
        tx.afterCommit([event]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await countGroups()).toBe(before);
    expect(await journal()).toEqual([]);
  });

  it('reads outside a transaction with read(): no BEGIN or COMMIT, the same repositories', async () => {
    const counter = t.app.get(StatementCounter);
    await uow.run((tx) => tx.realms.get(1)); // the organization's settings in the cache
    counter.statements = [];
    try {
      const [groups, realm] = await uow.read(async (tx) => [await tx.groupSettings.systemGroupIds(1), await tx.realms.get(1)] as const);
      expect(realm?.id).toBe(1);
      expect(groups).toBeTruthy();
      expect(counter.statements.filter((x) => /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)/.test(x))).toEqual([]);
    } finally {
      counter.statements = null;
    }
  });

  it('journals the events with the transaction, in order, in one statement', async () => {
    const id = await uow.run(async (tx) => {
      const groupId = await tx.groupSettings.store(1, { directMembers: [t.owner.id], directSubgroups: [] });
      tx.afterCommit([event, { ...event, event: { type: 'second' } }]);
      return groupId;
    });
    expect(await journal()).toEqual([{ payload: event }, { payload: { ...event, event: { type: 'second' } } }]);
    // Both rows carry the id of the transaction that wrote them.
    const xids = await ds.query(`SELECT DISTINCT xid::text FROM events`);
    expect(xids).toHaveLength(1);
    const [row] = await ds.query(`SELECT name FROM user_groups WHERE id = $1`, [id]);
    expect(row).toEqual({ name: null });
  });

  it('notifies after COMMIT, not inside the transaction (which would serialize every notifying COMMIT)', async () => {
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    try {
      const notified: string[] = [];
      listener.on('notification', (n) => notified.push(n.channel));
      await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
      const local: number[] = [];
      t.app.get(JournalSignal).onCommitted(() => local.push(local.length));
      const counter = t.app.get(StatementCounter);
      counter.statements = [];
      await uow.run(async (tx) => {
        tx.afterCommit([event]);
        await tx.groupSettings.store(1, { directMembers: [t.owner.id], directSubgroups: [] });
        expect(local).toEqual([]); // still inside: nobody told yet
      });
      const statements = counter.statements;
      counter.statements = null;
      expect(statements.some((q) => q.includes('INSERT INTO events'))).toBe(true);
      expect(statements.some((q) => q.includes('pg_notify'))).toBe(false);
      expect(local).toEqual([0]); // this process's listeners, at once after COMMIT
      await vi.waitFor(() => expect(notified).toContain(EVENTS_CHANNEL), { timeout: 10_000, interval: 10 }); // the others, by one NOTIFY
    } finally {
      await listener.end();
    }
  });

  it('reports a unique violation lost to a concurrent writer as the rule it protects', async () => {
    const attempt = () =>
      uow.run(async (tx) =>
        tx.groups.createNamed({ realmId: 1, name: 'racy', description: '', creatorId: t.owner.id, dateCreated: new Date(), settings: {} }),
      );
    await attempt();
    await expect(attempt()).rejects.toMatchObject({ msg: "User group 'racy' already exists." });
  });
});

describe('user group queries', () => {
  it('walk subgroups in both directions', async () => {
    const ids = await uow.run(async (tx) => {
      const a = await tx.groupSettings.store(1, { directMembers: [], directSubgroups: [] });
      const b = await tx.groupSettings.store(1, { directMembers: [t.owner.id], directSubgroups: [a] });
      const c = await tx.groupSettings.store(1, { directMembers: [], directSubgroups: [b] });
      return { a, b, c };
    });
    await uow.run(async (tx) => {
      expect(await tx.groups.ancestorIds(ids.a)).toEqual(new Set([ids.a, ids.b, ids.c]));
      expect(await tx.groups.isMember(ids.c, t.owner.id, false)).toBe(true);
      expect(await tx.groups.isMember(ids.c, t.owner.id, true)).toBe(false);
      const mine = await tx.groups.groupIdsOfUser(t.owner.id);
      expect(mine.has(ids.b) && mine.has(ids.c) && !mine.has(ids.a)).toBe(true);
      expect(await tx.groups.settingValue(ids.b)).toEqual({ directMembers: [t.owner.id], directSubgroups: [ids.a] });
    });
  });
});

describe('a second pooled connection inside a unit of work', () => {
  it('fails the statement, naming the caller, whether from DataSource.query, the manager, a query runner or a nested unit of work', async () => {
    const attempts: Array<() => Promise<unknown>> = [
      () => ds.query('SELECT 1'),
      () => ds.manager.query('SELECT 1'),
      () => ds.createQueryBuilder().select('1').from('realms', 'r').getRawMany(),
      async () => {
        const runner = ds.createQueryRunner();
        try {
          return await runner.query('SELECT 1');
        } finally {
          await runner.release();
        }
      },
      () => uow.run(async () => 1),
    ];
    for (const attempt of attempts) {
      await expect(uow.run(() => attempt())).rejects.toThrow(/second pooled connection .* called from .*unit-of-work\.int-spec\.ts/);
    }
    expect(connectionViolations.splice(0)).toHaveLength(attempts.length);
  });

  it('lets the transaction itself, work before and after it, and work after COMMIT use the pool', async () => {
    const later: Array<Promise<unknown>> = [];
    const out = await uow.run(async (tx) => {
      await tx.groups.isMember(1, t.owner.id, false);
      await Promise.all([tx.groups.groupIdsOfUser(t.owner.id), tx.groups.groupIdsOfUser(t.owner.id)]);
      // Started inside, run after the work has ended (as a handler after COMMIT would).
      later.push(new Promise((resolve) => setImmediate(resolve)).then(() => ds.query('SELECT 1')));
      return 'ok';
    });
    expect(out).toBe('ok');
    await Promise.all(later);
    expect(await ds.query('SELECT 2 AS n')).toEqual([{ n: 2 }]);
    await expect(Promise.all([uow.run(async () => ds.query('SELECT 1')).catch(() => null), ds.query('SELECT 3 AS n')])).resolves.toEqual([null, [{ n: 3 }]]);
    expect(connectionViolations.splice(0)).toHaveLength(1);
  });

  it('in production only warns, once per call site, and the statement goes ahead', async () => {
    const warnings: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    const prod = await openDataSource(t.databaseUrl, undefined, logger, false);
    try {
      const prodUow = new TypeOrmUnitOfWork(prod, new OrganizationSettingsCache(), new JournalSignal(prod, logger));
      const readOnPool = () => prodUow.run(async () => (await prod.query('SELECT 7 AS n'))[0].n as number);
      expect(await readOnPool()).toBe(7);
      expect(await readOnPool()).toBe(7);
      expect(warnings).toEqual([expect.objectContaining({ msg: 'second pooled connection asked for inside a transaction', callSite: expect.stringContaining('unit-of-work.int-spec.ts') })]);
      expect(connectionViolations).toEqual([]);
    } finally {
      await prod.destroy();
    }
  });
});
