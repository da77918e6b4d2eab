import { ScheduledMessage, type ScheduledMessageState } from '@app/domain/drafts';
import type { EntityManager } from 'typeorm';
import { type DueScheduledMessage, ScheduledMessageRepository } from '../application/draft.ports.js';

/** A `scheduled_messages` row read with COLUMNS. */
export interface ScheduledMessageRow {
  id: number;
  realm_id: number;
  user_id: number;
  channel_id: number | null;
  topic: string;
  direct_user_ids: number[];
  content: string;
  rendered_content: string;
  sending_client: string;
  read_by_sender: boolean;
  scheduled_at: Date;
  delivered: boolean;
  delivered_message_id: number | null;
  failed: boolean;
  failure_message: string | null;
}

const COLUMNS = `id, realm_id, user_id, channel_id, topic, direct_user_ids, content, rendered_content, sending_client,
  read_by_sender, scheduled_at, delivered, delivered_message_id, failed, failure_message`;

/** An owner's undelivered scheduled messages, by delivery time (scheduled_messages_owner_idx). */
export const SCHEDULED_MESSAGES_OF_OWNER_SQL = `SELECT ${COLUMNS} FROM scheduled_messages
  WHERE realm_id = $1 AND user_id = $2 AND NOT delivered ORDER BY scheduled_at, id`;

export function toScheduledMessageState(r: ScheduledMessageRow): ScheduledMessageState {
  return {
    id: r.id,
    ownerId: r.user_id,
    target:
      r.channel_id !== null
        ? { kind: 'channel', channelId: r.channel_id, topic: r.topic }
        : { kind: 'direct', participantIds: [...r.direct_user_ids].sort((a, b) => a - b) },
    content: r.content,
    renderedContent: r.rendered_content,
    sendingClient: r.sending_client,
    readBySender: r.read_by_sender,
    scheduledAt: r.scheduled_at,
    delivered: r.delivered,
    deliveredMessageId: r.delivered_message_id,
    failed: r.failed,
    failureMessage: r.failure_message,
  };
}

/** The columns after realm_id and user_id, in COLUMNS order. */
function toColumns(s: Readonly<ScheduledMessageState>): unknown[] {
  const t = s.target;
  return [
    t.kind === 'channel' ? t.channelId : null,
    t.kind === 'channel' ? t.topic : '',
    t.kind === 'direct' ? [...t.participantIds] : [],
    s.content,
    s.renderedContent,
    s.sendingClient,
    s.readBySender,
    s.scheduledAt,
    s.delivered,
    s.deliveredMessageId,
    s.failed,
    s.failureMessage,
  ];
}

export class TypeOrmScheduledMessageRepository extends ScheduledMessageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async insert(realmId: number, m: ScheduledMessage): Promise<number> {
    const s = m.snapshot();
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO scheduled_messages (realm_id, user_id, channel_id, topic, direct_user_ids, content, rendered_content,
         sending_client, read_by_sender, scheduled_at, delivered, delivered_message_id, failed, failure_message)
       VALUES ($1, $2, $3, $4, $5::int[], $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [realmId, s.ownerId, ...toColumns(s)],
    );
    return row.id;
  }

  async findOwned(realmId: number, ownerId: number, id: number): Promise<ScheduledMessage | null> {
    const [row]: ScheduledMessageRow[] = await this.em.query(
      `SELECT ${COLUMNS} FROM scheduled_messages WHERE realm_id = $1 AND user_id = $2 AND id = $3 FOR UPDATE`,
      [realmId, ownerId, id],
    );
    return row === undefined ? null : ScheduledMessage.restore(toScheduledMessageState(row));
  }

  async save(realmId: number, m: ScheduledMessage): Promise<void> {
    const s = m.snapshot();
    await this.em.query(
      `UPDATE scheduled_messages SET channel_id = $3, topic = $4, direct_user_ids = $5::int[], content = $6, rendered_content = $7,
         sending_client = $8, read_by_sender = $9, scheduled_at = $10, delivered = $11, delivered_message_id = $12, failed = $13,
         failure_message = $14
       WHERE realm_id = $1 AND id = $2`,
      [realmId, s.id, ...toColumns(s)],
    );
  }

  async delete(realmId: number, id: number): Promise<void> {
    await this.em.query(`DELETE FROM scheduled_messages WHERE realm_id = $1 AND id = $2`, [realmId, id]);
  }

  /**
   * SKIP LOCKED: a message another transaction is delivering (or an owner is editing) is passed
   * over, not waited for. Under READ COMMITTED a row that transaction has meanwhile committed as
   * delivered or failed is re-checked against the WHERE clause when locked, so it is never taken twice.
   */
  async claimDue(now: Date, skip: readonly number[]): Promise<DueScheduledMessage | null> {
    const [row]: ScheduledMessageRow[] = await this.em.query(
      `SELECT ${COLUMNS} FROM scheduled_messages WHERE scheduled_at <= $1 AND NOT delivered AND NOT failed AND id <> ALL($2::int[])
       ORDER BY scheduled_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now, [...skip]],
    );
    return row === undefined ? null : { realmId: row.realm_id, message: ScheduledMessage.restore(toScheduledMessageState(row)) };
  }

  async beginAttempt(): Promise<void> {
    await this.em.query('SAVEPOINT scheduled_message_delivery');
  }

  async undoAttempt(): Promise<void> {
    await this.em.query('ROLLBACK TO SAVEPOINT scheduled_message_delivery');
  }
}
