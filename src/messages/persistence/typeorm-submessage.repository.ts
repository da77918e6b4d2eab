import type { Submessage, SubmessageFacts } from '@app/domain/messages';
import { WIDGET_MSG_TYPE } from '@app/domain/messages';
import type { EntityManager } from 'typeorm';
import { SubmessageRepository } from '../application/submessage.ports.js';

/** The columns of a submessage as the domain names them (the submessages table is `s`). */
export const SUBMESSAGE_COLUMNS = `s.id, s.message_id AS "messageId", s.sender_id AS "senderId", s.msg_type AS "msgType", s.content`;

export class TypeOrmSubmessageRepository extends SubmessageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async facts(messageId: number, messageSenderId: number): Promise<SubmessageFacts> {
    const [row]: { first_widget: string | null; sender_has: boolean }[] = await this.em.query(
      `SELECT (SELECT s.content FROM submessages s WHERE s.message_id = $1 AND s.msg_type = $3 ORDER BY s.id LIMIT 1) AS first_widget,
              EXISTS (SELECT 1 FROM submessages s WHERE s.message_id = $1 AND s.sender_id = $2) AS sender_has`,
      [messageId, messageSenderId, WIDGET_MSG_TYPE],
    );
    return { firstWidgetContent: row.first_widget, senderHasSubmessage: row.sender_has };
  }

  async add(s: Omit<Submessage, 'id'>): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `WITH ins AS (
         INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES ($1, $2, $3, $4) RETURNING id
       ), flag AS (
         UPDATE messages SET has_submessages = true WHERE id = $1 AND NOT has_submessages
       )
       SELECT id FROM ins`,
      [s.messageId, s.senderId, s.msgType, s.content],
    );
    return row.id;
  }
}
