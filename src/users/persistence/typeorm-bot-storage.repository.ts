import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { BotStorageQueries, BotStorageRepository } from '../application/bot-storage.ports.js';

/** Rows of these keys, through the unique (bot_id, md5(key)) index. */
const OF_KEYS = `md5(key) = ANY(ARRAY(SELECT md5(k) FROM unnest($3::text[]) AS k)) AND key = ANY($3::text[])`;

export class TypeOrmBotStorageRepository extends BotStorageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lock(realmId: number, botId: number): Promise<void> {
    await this.em.query(`SELECT 1 FROM users WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [realmId, botId]);
  }

  async sizes(realmId: number, botId: number, keys: readonly string[]): Promise<{ total: number; ofWrittenKeys: number }> {
    const [row]: { total: string; written: string }[] = await this.em.query(
      `SELECT coalesce(sum(length(key) + length(value)), 0)::bigint AS total,
              coalesce(sum(length(key) + length(value)) FILTER (WHERE key = ANY($3::text[])), 0)::bigint AS written
       FROM bot_storage WHERE realm_id = $1 AND bot_id = $2`,
      [realmId, botId, keys],
    );
    return { total: Number(row.total), ofWrittenKeys: Number(row.written) };
  }

  async put(realmId: number, botId: number, entries: readonly (readonly [string, string])[]): Promise<void> {
    if (entries.length === 0) return;
    await this.em.query(
      `INSERT INTO bot_storage (realm_id, bot_id, key, value)
       SELECT $1, $2, e.key, e.value FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS e(key, value, n) ORDER BY e.n
       ON CONFLICT (bot_id, md5(key)) DO UPDATE SET value = EXCLUDED.value`,
      [realmId, botId, entries.map(([k]) => k), entries.map(([, v]) => v)],
    );
  }

  async remove(realmId: number, botId: number, keys: readonly string[] | null): Promise<number> {
    const rows = returnedRows<{ id: number }>(
      await this.em.query(
        `DELETE FROM bot_storage WHERE realm_id = $1 AND bot_id = $2 ${keys === null ? '' : `AND ${OF_KEYS}`} RETURNING id`,
        keys === null ? [realmId, botId] : [realmId, botId, keys],
      ),
    );
    return rows.length;
  }
}

@Injectable()
export class TypeOrmBotStorageQueries extends BotStorageQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async entries(realmId: number, botId: number, keys: readonly string[] | null): Promise<[string, string][]> {
    const rows: { key: string; value: string }[] = await this.ds.query(
      `SELECT key, value FROM bot_storage WHERE realm_id = $1 AND bot_id = $2 ${keys === null ? '' : `AND ${OF_KEYS}`} ORDER BY id`,
      keys === null ? [realmId, botId] : [realmId, botId, keys],
    );
    return rows.map((r) => [r.key, r.value]);
  }
}
