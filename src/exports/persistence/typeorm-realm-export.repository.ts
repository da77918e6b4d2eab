import type { ExportType } from '@app/domain/exports';
import type { EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { type RealmExportRecord, RealmExportRepository } from '../application/realm-exports.ports.js';
import { EXPORT_COLUMNS, type RealmExportRow, toRecord } from './realm-export.rows.js';

/** The key of pg_advisory_xact_lock(key, realm id) that serializes an organization's export requests. */
const REQUEST_LOCK = 1_701_000_017;

/** Messages a public export holds: those of public channels (a full one: all of them). */
const PUBLIC_MESSAGES = `SELECT count(*)::int FROM messages m JOIN channels c ON c.id = m.channel_id AND NOT c.invite_only WHERE m.realm_id = $1`;

/** requestFacts' one row: counts cast to int4, the upload total a bigint (a string). */
interface RequestFactsRow {
  recent: number;
  messages: number;
  upload_bytes: string;
  consenting: boolean;
  visible: boolean;
}

interface IdRow {
  id: number;
}

export class TypeOrmRealmExportRepository extends RealmExportRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lockRequests(realmId: number): Promise<void> {
    await this.em.query(`SELECT pg_advisory_xact_lock($1, $2)`, [REQUEST_LOCK, realmId]);
  }

  async requestFacts(realmId: number, type: ExportType, since: Date) {
    const [row]: RequestFactsRow[] = await this.em.query(
      `SELECT
         (SELECT count(*)::int FROM realm_exports WHERE realm_id = $1 AND date_requested >= $2) AS recent,
         (${type === 'public' ? PUBLIC_MESSAGES : `SELECT count(*)::int FROM messages WHERE realm_id = $1`}) AS messages,
         (SELECT coalesce(sum(size), 0)::bigint FROM attachments WHERE realm_id = $1) AS upload_bytes,
         EXISTS (SELECT 1 FROM users WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot AND allow_private_data_export) AS consenting,
         EXISTS (SELECT 1 FROM users WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot AND email_address_visibility <> 4) AS visible`,
      [realmId, since],
    );
    return {
      recentExports: row.recent,
      exportableMessages: row.messages,
      uploadBytes: Number(row.upload_bytes),
      consentingOwner: row.consenting,
      ownerWithVisibleEmail: row.visible,
    };
  }

  async insert(e: { realmId: number; actingUserId: number; type: ExportType; now: Date }): Promise<number> {
    const [row]: IdRow[] = await this.em.query(
      `INSERT INTO realm_exports (realm_id, acting_user_id, export_type, date_requested) VALUES ($1, $2, $3, $4) RETURNING id`,
      [e.realmId, e.actingUserId, e.type, e.now],
    );
    return row.id;
  }

  async getForUpdate(realmId: number, id: number): Promise<RealmExportRecord | null> {
    const rows: RealmExportRow[] = await this.em.query(
      `SELECT ${EXPORT_COLUMNS} FROM realm_exports e JOIN realms r ON r.id = e.realm_id WHERE e.realm_id = $1 AND e.id = $2 FOR UPDATE OF e`,
      [realmId, id],
    );
    return rows.length === 0 ? null : { ...toRecord(rows[0]), exportPath: rows[0].export_path };
  }

  async markDeleted(id: number, now: Date): Promise<void> {
    await this.em.query(`UPDATE realm_exports SET status = 'deleted', date_deleted = $2 WHERE id = $1`, [id, now]);
  }

  async list(realmId: number): Promise<RealmExportRecord[]> {
    const rows: RealmExportRow[] = await this.em.query(
      `SELECT ${EXPORT_COLUMNS} FROM realm_exports e JOIN realms r ON r.id = e.realm_id
       WHERE e.realm_id = $1 AND e.acting_user_id IS NOT NULL ORDER BY e.id`,
      [realmId],
    );
    return rows.map(toRecord);
  }

  async adminIds(realmId: number): Promise<number[]> {
    const rows: IdRow[] = await this.em.query(
      `SELECT id FROM users WHERE realm_id = $1 AND role IN (100, 200) AND is_active AND NOT is_bot ORDER BY id`,
      [realmId],
    );
    return rows.map((r) => r.id);
  }

  async finish(
    id: number,
    leaseToken: string,
    o: { status: 'succeeded' | 'failed'; now: Date; path?: string; size?: number; error?: string },
  ): Promise<boolean> {
    const rows = returnedRows<IdRow>(
      await this.em.query(
        `UPDATE realm_exports SET status = $3, lease_token = NULL, lease_until = NULL,
           date_succeeded = CASE WHEN $3 = 'succeeded' THEN $4::timestamptz END,
           date_failed = CASE WHEN $3 = 'failed' THEN $4::timestamptz END,
           export_path = $5, tarball_size_bytes = $6, last_error = $7
         WHERE id = $1 AND lease_token = $2 AND status = 'started' RETURNING id`,
        [id, leaseToken, o.status, o.now, o.path ?? null, o.size ?? null, o.error?.slice(0, 2000) ?? null],
      ),
    );
    return rows.length > 0;
  }
}
