import type { EntityManager } from 'typeorm';
import { type ArchiveRow, ArchiveImportWriter, type ImportTable } from '../application/archive-import.ports.js';

const TABLES = new Set<ImportTable>([
  'users', 'user_groups', 'user_group_members', 'user_group_subgroups', 'channels', 'subscriptions', 'realm_emoji', 'attachments',
  'messages', 'user_messages', 'reactions', 'attachment_messages', 'realms',
]);
const RECIPIENT_CHANNEL = 2;
const RECIPIENT_DIRECT = 3;
const quote = (c: string) => `"${c.replace(/"/g, '""')}"`;

/** The rows its statements return (every id here is an int4 serial). */
interface ColumnNameRow {
  column_name: string;
}
interface IdRow {
  id: number;
}
interface NamedIdRow {
  id: number;
  name: string;
}
interface ChannelRecipientRow {
  channel_id: number;
  id: number;
}
interface DirectRecipientRow {
  participant_key: string;
  id: number;
}

/** The import's writes on its transaction; each statement takes its rows as one JSON array. */
export class TypeOrmArchiveImportWriter extends ArchiveImportWriter {
  private readonly columns = new Map<string, Set<string>>();

  constructor(private readonly em: EntityManager) {
    super();
  }

  private async columnsOf(table: ImportTable): Promise<Set<string>> {
    if (!TABLES.has(table)) throw new Error(`not an import table: ${table}`);
    let cols = this.columns.get(table);
    if (cols === undefined) {
      const rows: ColumnNameRow[] = await this.em.query(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
        [table],
      );
      cols = new Set(rows.map((r) => r.column_name));
      this.columns.set(table, cols);
    }
    return cols;
  }

  async allocateIds(table: ImportTable, n: number): Promise<number[]> {
    if (n === 0) return [];
    await this.columnsOf(table);
    const rows: IdRow[] = await this.em.query(
      `SELECT nextval(pg_get_serial_sequence($1, 'id'))::int AS id FROM generate_series(1, $2) ORDER BY 1`,
      [table, n],
    );
    return rows.map((r) => r.id);
  }

  async insertRows(table: ImportTable, rows: readonly ArchiveRow[], o: { skipConflicts?: boolean } = {}): Promise<void> {
    if (rows.length === 0) return;
    const have = await this.columnsOf(table);
    const cols = Object.keys(rows[0]).filter((c) => have.has(c)).map(quote).join(', ');
    await this.em.query(
      `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)${o.skipConflicts ? ' ON CONFLICT DO NOTHING' : ''}`,
      [JSON.stringify(rows)],
    );
  }

  async updateRows(table: ImportTable, rows: readonly ArchiveRow[], columns: readonly string[]): Promise<void> {
    if (rows.length === 0) return;
    const have = await this.columnsOf(table);
    const cols = columns.filter((c) => have.has(c) && c !== 'id');
    if (cols.length === 0) return;
    await this.em.query(
      `UPDATE ${table} t SET (${cols.map(quote).join(', ')}) = ROW(${cols.map((c) => `s.${quote(c)}`).join(', ')})
       FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb) s WHERE t.id = s.id`,
      [JSON.stringify(rows)],
    );
  }

  async userIdByEmail(realmId: number, email: string): Promise<number | null> {
    const rows: IdRow[] = await this.em.query(`SELECT id FROM users WHERE realm_id = $1 AND lower(delivery_email) = lower($2)`, [realmId, email]);
    return rows.length === 0 ? null : rows[0].id;
  }

  async systemGroupIds(realmId: number): Promise<Map<string, number>> {
    const rows: NamedIdRow[] = await this.em.query(`SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`, [realmId]);
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async channelIdsByName(realmId: number): Promise<Map<string, number>> {
    const rows: NamedIdRow[] = await this.em.query(`SELECT id, lower(name) AS name FROM channels WHERE realm_id = $1`, [realmId]);
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async deleteSubscriptions(realmId: number): Promise<void> {
    await this.em.query(`DELETE FROM subscriptions WHERE realm_id = $1`, [realmId]);
  }

  async channelRecipients(realmId: number): Promise<Map<number, number>> {
    await this.em.query(
      `INSERT INTO recipients (realm_id, type, type_id) SELECT $1, ${RECIPIENT_CHANNEL}, id FROM channels WHERE realm_id = $1
       ON CONFLICT (type, type_id) DO NOTHING`,
      [realmId],
    );
    const rows: ChannelRecipientRow[] = await this.em.query(
      `SELECT c.id AS channel_id, r.id FROM channels c JOIN recipients r ON r.type = ${RECIPIENT_CHANNEL} AND r.type_id = c.id WHERE c.realm_id = $1`,
      [realmId],
    );
    return new Map(rows.map((r) => [r.channel_id, r.id]));
  }

  async directRecipients(realmId: number, participantSets: readonly (readonly number[])[]): Promise<Map<string, number>> {
    const sets = new Map(participantSets.map((s) => {
      const ids = [...new Set(s)].sort((a, b) => a - b);
      return [ids.join(','), ids] as const;
    }));
    if (sets.size === 0) return new Map();
    const keys = [...sets.keys()];
    await this.em.query(
      `WITH ins AS (
         INSERT INTO direct_message_groups (realm_id, participant_key) SELECT $1, k FROM unnest($2::text[]) AS k
         ON CONFLICT (realm_id, participant_key) DO NOTHING RETURNING id, participant_key
       ), members AS (
         INSERT INTO direct_message_group_members (group_id, user_id)
         SELECT ins.id, u::int FROM ins, unnest(string_to_array(ins.participant_key, ',')) AS u
       )
       INSERT INTO recipients (realm_id, type, type_id) SELECT $1, ${RECIPIENT_DIRECT}, id FROM ins`,
      [realmId, keys],
    );
    const rows: DirectRecipientRow[] = await this.em.query(
      `SELECT g.participant_key, r.id FROM direct_message_groups g JOIN recipients r ON r.type = ${RECIPIENT_DIRECT} AND r.type_id = g.id
       WHERE g.realm_id = $1 AND g.participant_key = ANY($2::text[])`,
      [realmId, keys],
    );
    return new Map(rows.map((r) => [r.participant_key, r.id]));
  }

  async addSubscriberHistory(realmId: number): Promise<void> {
    await this.em.query(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT s.user_id, m.id, 1 FROM messages m JOIN subscriptions s ON s.channel_id = m.channel_id AND s.active
       WHERE m.realm_id = $1 ON CONFLICT DO NOTHING`,
      [realmId],
    );
  }

  async finishChannels(realmId: number): Promise<void> {
    await this.em.query(
      `UPDATE channels c SET first_message_id = (SELECT min(m.id) FROM messages m WHERE m.channel_id = c.id) WHERE c.realm_id = $1`,
      [realmId],
    );
  }
}
