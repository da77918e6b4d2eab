import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { type ClaimedExport, type ExportConsent, type RealmExportRecord, RealmExportQueries } from '../application/realm-exports.ports.js';
import { EXPORT_COLUMNS, type RealmExportRow, toRecord } from './realm-export.rows.js';

interface ClaimedRow {
  id: number;
  realm_id: number;
  string_id: string;
  export_type: ClaimedExport['type'];
  attempts: number;
  lease_token: string;
}

/** A users row's export consent (email_address_visibility is a smallint). */
interface ConsentRow {
  id: number;
  allow_private_data_export: boolean;
  email_address_visibility: number;
}

interface IdRow {
  id: number;
}

/** Reads, and the worker's claims: each method one statement on the pool (its own transaction). */
@Injectable()
export class TypeOrmRealmExportQueries extends RealmExportQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async consents(realmId: number): Promise<ExportConsent[]> {
    const rows: ConsentRow[] = await this.ds.query(
      `SELECT id, allow_private_data_export, email_address_visibility FROM users WHERE realm_id = $1 AND is_active AND NOT is_bot ORDER BY id`,
      [realmId],
    );
    return rows.map((r) => ({ userId: r.id, consented: r.allow_private_data_export, emailAddressVisibility: r.email_address_visibility }));
  }

  async succeededByPath(realmId: number, path: string): Promise<RealmExportRecord | null> {
    const rows: RealmExportRow[] = await this.ds.query(
      `SELECT ${EXPORT_COLUMNS} FROM realm_exports e JOIN realms r ON r.id = e.realm_id
       WHERE e.realm_id = $1 AND e.export_path = $2 AND e.status = 'succeeded'`,
      [realmId, path],
    );
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  async claimNext(o: { now: Date; leaseUntil: Date; id?: number }): Promise<ClaimedExport | null> {
    const rows = returnedRows<ClaimedRow>(
      await this.ds.query(
        `UPDATE realm_exports e SET status = 'started', attempts = e.attempts + 1, lease_token = gen_random_uuid(), lease_until = $2,
           date_started = coalesce(e.date_started, $1)
         FROM realms r
         WHERE r.id = e.realm_id AND e.id = (
           SELECT id FROM realm_exports
           WHERE (status = 'requested' OR (status = 'started' AND lease_until < $1)) AND ($3::int IS NULL OR id = $3)
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING e.id, e.realm_id, r.string_id, e.export_type, e.attempts, e.lease_token`,
        [o.now, o.leaseUntil, o.id ?? null],
      ),
    );
    const r = rows[0];
    if (r === undefined) return null;
    return { id: r.id, realmId: r.realm_id, realmStringId: r.string_id, type: r.export_type, attempts: r.attempts, leaseToken: r.lease_token };
  }

  async renewLease(id: number, leaseToken: string, leaseUntil: Date): Promise<boolean> {
    const rows = returnedRows<IdRow>(
      await this.ds.query(`UPDATE realm_exports SET lease_until = $3 WHERE id = $1 AND lease_token = $2 AND status = 'started' RETURNING id`, [
        id,
        leaseToken,
        leaseUntil,
      ]),
    );
    return rows.length > 0;
  }
}
