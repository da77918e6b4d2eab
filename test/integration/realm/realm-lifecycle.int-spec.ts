import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TypeOrmRealmLifecycleRepository } from '../../../src/realm/persistence/typeorm-realm-lifecycle.repository.js';
import { startAdapterSuite } from '../../support/adapter-suite.js';
import type { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
beforeAll(async () => {
  ({ t, uow, ds, realmId, otherRealmId } = await startAdapterSuite());
});
afterAll(() => t.close());

describe('TypeOrmRealmLifecycleRepository', () => {
  it('is the adapter of its port', async () => {
    await uow.run(async (tx) => expect(tx.realmLifecycle).toBeInstanceOf(TypeOrmRealmLifecycleRepository));
  });

  it('lists the active human owners by id with their contact details', async () => {
    const second = await t.createUser({ role: 100, fullName: 'Second Owner' });
    await t.createUser({ role: 200 });
    await ds.query(`UPDATE users SET timezone = 'Europe/Paris' WHERE id = $1`, [second.id]);
    const rows = await ds.query(`SELECT id, full_name, delivery_email FROM users WHERE id = ANY($1::int[]) ORDER BY id`, [[t.owner.id, second.id]]);
    expect(await uow.run((tx) => tx.realmLifecycle.activeHumanOwners(realmId))).toEqual([
      { userId: rows[0].id, fullName: rows[0].full_name, deliveryEmail: rows[0].delivery_email, timezone: '' },
      { userId: rows[1].id, fullName: 'Second Owner', deliveryEmail: rows[1].delivery_email, timezone: 'Europe/Paris' },
    ]);
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [second.id]);
    expect((await uow.run((tx) => tx.realmLifecycle.activeHumanOwners(realmId))).map((o) => o.userId)).toEqual([t.owner.id]);
    expect((await uow.run((tx) => tx.realmLifecycle.activeHumanOwners(otherRealmId))).map((o) => o.userId)).not.toContain(t.owner.id);
  });

  it('deactivates an organization once, ending its sessions only', async () => {
    const users: { id: number; realm_id: number }[] = await ds.query(`SELECT id, realm_id FROM users WHERE NOT is_bot AND role = 100 ORDER BY id`);
    const mine = users.find((u) => u.realm_id === realmId)!;
    const theirs = users.find((u) => u.realm_id === otherRealmId)!;
    const now = new Date('2025-01-01T00:00:00Z');
    const expires = new Date('2099-01-01T00:00:00Z');
    for (const [n, u] of [[1, mine], [2, theirs]] as const) {
      await ds.query(
        `INSERT INTO sessions (token_sha256, realm_id, user_id, password_stamp, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, 's', $4, $4, $5)`,
        [String(n).repeat(64), u.realm_id, u.id, now, expires],
      );
    }
    const deletion = new Date('2025-02-01T00:00:00Z');
    expect(await uow.run((tx) => tx.realmLifecycle.deactivate(otherRealmId, deletion))).toBe(true);
    expect(await uow.run((tx) => tx.realmLifecycle.deactivate(otherRealmId, null))).toBe(false);
    expect(await ds.query(`SELECT id, deactivated, scheduled_deletion_date FROM realms ORDER BY id`)).toEqual([
      { id: realmId, deactivated: false, scheduled_deletion_date: null },
      { id: otherRealmId, deactivated: true, scheduled_deletion_date: deletion },
    ]);
    expect(await ds.query(`SELECT realm_id FROM sessions`)).toEqual([{ realm_id: realmId }]);
  });
});
