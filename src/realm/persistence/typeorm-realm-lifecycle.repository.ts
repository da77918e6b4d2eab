import type { EntityManager } from 'typeorm';
import { type OwnerContact, RealmLifecycleRepository } from '../application/realm-lifecycle.ports.js';

/** A row of activeHumanOwners' statement. */
interface OwnerRow {
  id: number;
  full_name: string;
  delivery_email: string;
  timezone: string;
}

export class TypeOrmRealmLifecycleRepository extends RealmLifecycleRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async deactivate(realmId: number, scheduledDeletionDate: Date | null): Promise<boolean> {
    // The organization's browser sessions end with it, in the same statement.
    const rows: { id: number }[] = await this.em.query(
      `WITH done AS (UPDATE realms SET deactivated = true, scheduled_deletion_date = $2 WHERE id = $1 AND NOT deactivated RETURNING id),
            ended AS (DELETE FROM sessions WHERE realm_id IN (SELECT id FROM done))
       SELECT id FROM done`,
      [realmId, scheduledDeletionDate],
    );
    return rows.length > 0;
  }

  async activeHumanOwners(realmId: number): Promise<OwnerContact[]> {
    const rows: OwnerRow[] = await this.em.query(
      `SELECT id, full_name, delivery_email, timezone FROM users WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot ORDER BY id`,
      [realmId],
    );
    return rows.map((r) => ({ userId: r.id, fullName: r.full_name, deliveryEmail: r.delivery_email, timezone: r.timezone }));
  }
}
