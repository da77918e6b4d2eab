import type { ReminderView } from '@app/domain/drafts';
import type { EntityManager } from 'typeorm';
import { type DueReminder, type NewReminder, ReminderRepository } from '../application/draft.ports.js';

/** A `reminders` row as claimDue selects it. */
interface ReminderRow {
  id: number;
  realm_id: number;
  user_id: number;
  target_message_id: number;
  note: string;
  content: string;
  rendered_content: string;
  scheduled_at: Date;
  failed: boolean;
}

/** A row of REMINDER_VIEW_SQL. */
export type ReminderViewRow = Pick<ReminderRow, 'id' | 'user_id' | 'target_message_id' | 'content' | 'rendered_content' | 'scheduled_at' | 'failed'>;

export const REMINDER_VIEW_SQL = `SELECT id, user_id, target_message_id, content, rendered_content, scheduled_at, failed
  FROM reminders WHERE realm_id = $1 AND user_id = $2 AND NOT delivered ORDER BY scheduled_at, id`;

export function toReminderView(r: ReminderViewRow): ReminderView {
  return {
    id: r.id,
    ownerId: r.user_id,
    targetMessageId: r.target_message_id,
    content: r.content,
    renderedContent: r.rendered_content,
    scheduledAt: r.scheduled_at,
    failed: r.failed,
  };
}

/** `UPDATE … RETURNING` through TypeORM answers [rows, count]. */
const affected = (result: unknown): number => (Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0);

export class TypeOrmReminderRepository extends ReminderRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async insert(r: NewReminder): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO reminders (realm_id, user_id, target_message_id, note, content, rendered_content, scheduled_at, date_created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [r.realmId, r.userId, r.targetMessageId, r.note, r.content, r.renderedContent, r.scheduledAt, r.now],
    );
    return row.id;
  }

  async lockOwned(realmId: number, userId: number, reminderId: number): Promise<boolean> {
    const rows: { id: number }[] = await this.em.query(`SELECT id FROM reminders WHERE realm_id = $1 AND user_id = $2 AND id = $3 FOR UPDATE`, [
      realmId,
      userId,
      reminderId,
    ]);
    return rows.length > 0;
  }

  async delete(realmId: number, reminderId: number): Promise<void> {
    await this.em.query(`DELETE FROM reminders WHERE realm_id = $1 AND id = $2`, [realmId, reminderId]);
  }

  /**
   * SKIP LOCKED: a reminder another transaction is delivering is passed over, not waited for.
   * Under READ COMMITTED a row that transaction has meanwhile committed as delivered is
   * re-checked against the WHERE clause when locked, so it is never taken twice.
   */
  async claimDue(now: Date): Promise<DueReminder | null> {
    const [row]: ReminderRow[] = await this.em.query(
      `SELECT id, realm_id, user_id, target_message_id, note, content, rendered_content, scheduled_at, failed
       FROM reminders WHERE scheduled_at <= $1 AND NOT delivered AND NOT failed
       ORDER BY scheduled_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    if (row === undefined) return null;
    return {
      id: row.id,
      realmId: row.realm_id,
      userId: row.user_id,
      targetMessageId: row.target_message_id,
      note: row.note,
      content: row.content,
      renderedContent: row.rendered_content,
      scheduledAt: row.scheduled_at,
    };
  }

  async markDelivered(reminderId: number, messageId: number | null): Promise<void> {
    const result: unknown = await this.em.query(`UPDATE reminders SET delivered = true, delivered_message_id = $2 WHERE id = $1 AND NOT delivered`, [
      reminderId,
      messageId,
    ]);
    // The caller holds the row lock, so the reminder cannot have been delivered meanwhile.
    if (affected(result) !== 1) throw new Error(`reminder ${reminderId} was not pending delivery`);
  }

  async markFailed(reminderId: number, failureMessage: string): Promise<boolean> {
    const result: unknown = await this.em.query(`UPDATE reminders SET failed = true, failure_message = $2 WHERE id = $1 AND NOT delivered`, [
      reminderId,
      failureMessage,
    ]);
    return affected(result) === 1;
  }
}
