import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { BACKGROUND_SQL, StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { TestApp } from '../../support/test-app.js';

/** StatementCounter, as the DataSource's logger (COUNT_SQL_STATEMENTS): every statement sent, background work left out. */
let t: TestApp;
let ds: DataSource;
let counter: StatementCounter;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  counter = t.app.get(StatementCounter);
});
afterAll(() => t.close());

describe('StatementCounter', () => {
  it('counts each statement sent on the pool or in a unit of work, with its text when asked', async () => {
    counter.statements = [];
    const before = counter.count;
    await ds.query(`SELECT 1 AS one`);
    await t.app.get(UnitOfWork).run((tx) => tx.groupSettings.activeUserIds(1, [t.owner.id]));
    const statements = counter.statements;
    counter.statements = null;
    expect(statements[0]).toBe('SELECT 1 AS one');
    expect(statements).toContainEqual(expect.stringContaining('SELECT id FROM users WHERE realm_id = $1'));
    expect(counter.count - before).toBe(statements.length);
    expect(statements).toContain('START TRANSACTION');
    expect(statements).toContain('COMMIT');
  });

  it('leaves out the statements background work marks', async () => {
    counter.statements = [];
    const before = counter.count;
    await ds.query(`${BACKGROUND_SQL}SELECT 2`);
    expect(counter.count).toBe(before);
    expect(counter.statements).toEqual([]);
    counter.statements = null;
  });
});
