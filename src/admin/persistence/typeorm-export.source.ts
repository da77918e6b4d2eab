import { Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import {
  type ExportRecord,
  type ExportSection,
  type ImportedChannel,
  type ImportedMessage,
  type ImportedSubscription,
  type ImportedUser,
  OrganizationExportSource,
} from '../application/admin.ports.js';

/*
 * The rows of each section's query: the records the import reads back (ImportedUser …, the
 * port's), with their date columns still Dates (the archive's JSON makes them strings). Mapped
 * types, not the interfaces themselves, so that they are the plain records ExportRecord carries.
 */
type Queried<T, Dates extends keyof T> = Omit<T, Dates> & { [K in Dates]: Date | Extract<T[K], null> };
type ExportedUserRow = Queried<ImportedUser, 'date_joined'>;
type ExportedChannelRow = Queried<ImportedChannel, 'date_created'>;
type ExportedSubscriptionRow = Queried<ImportedSubscription, never> & { id: number };
type ExportedMessageRow = Queried<Omit<ImportedMessage, 'direct_user_ids'>, 'date_sent' | 'last_edit_time'> & {
  /** A direct message's participants; null for a channel message (and then left out of the record). */
  direct_user_ids: number[] | null;
};
type SectionRow = ExportedUserRow | ExportedChannelRow | ExportedSubscriptionRow | ExportedMessageRow;

/** The record of a row: a channel message's has no direct_user_ids. */
function recordOf(row: SectionRow): ExportRecord['row'] {
  if (!('direct_user_ids' in row) || row.direct_user_ids !== null) return row;
  const { direct_user_ids: _none, ...channelMessage } = row;
  return channelMessage;
}

/** Each section's query: rows of the organization after id $2, in id order, at most $3. */
const SECTION_QUERIES: Record<ExportSection, string> = {
  users: `SELECT id, delivery_email AS email, full_name, role, is_active, is_bot, is_system_bot, bot_type, date_joined, timezone
          FROM users WHERE realm_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
  channels: `SELECT id, name, description, rendered_description, invite_only, is_web_public, history_public_to_subscribers,
               is_archived, date_created
             FROM channels WHERE realm_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
  subscriptions: `SELECT id, user_id, channel_id, active, color, is_muted, pin_to_top
                  FROM subscriptions WHERE realm_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
  messages: `SELECT m.id, m.sender_id, m.channel_id, m.topic, m.content, m.rendered_content, m.date_sent, m.sending_client,
               m.last_edit_time,
               CASE WHEN m.channel_id IS NULL THEN
                 (SELECT array_agg(g.user_id ORDER BY g.user_id) FROM recipients r
                  JOIN direct_message_group_members g ON g.group_id = r.type_id WHERE r.id = m.recipient_id AND r.type = 3)
               END AS direct_user_ids,
               (SELECT coalesce(json_agg(json_build_array(um.user_id, um.flags) ORDER BY um.user_id), '[]'::json)
                FROM user_messages um WHERE um.message_id = m.id) AS user_flags
             FROM messages m WHERE m.realm_id = $1 AND m.id > $2 ORDER BY m.id LIMIT $3`,
};
const SECTIONS = Object.keys(SECTION_QUERIES) as ExportSection[];

/**
 * Keyset batches (`id > last ORDER BY id LIMIT n`) inside one read-only REPEATABLE READ
 * transaction: the export is one consistent snapshot, and only one batch is in memory at once.
 */
@Injectable()
export class TypeOrmExportSource extends OrganizationExportSource {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async *records(realmId: number, batchSize: number): AsyncIterable<ExportRecord> {
    const runner = this.ds.createQueryRunner();
    await runner.connect();
    let open = false;
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      for (const section of SECTIONS) yield* this.section(runner, section, realmId, batchSize);
      await runner.query('COMMIT');
      open = false;
    } finally {
      if (open) await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  }

  private async *section(runner: QueryRunner, section: ExportSection, realmId: number, batchSize: number): AsyncIterable<ExportRecord> {
    for (let last = 0; ; ) {
      const rows: SectionRow[] = await runner.query(SECTION_QUERIES[section], [realmId, last, batchSize]);
      for (const row of rows) yield { section, row: recordOf(row) };
      if (rows.length < batchSize) return;
      last = rows[rows.length - 1].id;
    }
  }
}
