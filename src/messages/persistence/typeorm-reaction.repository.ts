import { MessageReactions, type Reaction } from '@app/domain/messages';
import type { EntityManager } from 'typeorm';
import { ReactionRepository } from '../application/message.ports.js';

/** Reaction columns as the domain names them. */
export const REACTION_COLUMNS = `user_id AS "userId", emoji_name AS "emojiName", emoji_code AS "emojiCode", reaction_type AS "reactionType"`;

export class TypeOrmReactionRepository extends ReactionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async ofMessage(message: { id: number; realmId: number }): Promise<MessageReactions> {
    const rows: Reaction[] = await this.em.query(
      `SELECT ${REACTION_COLUMNS} FROM reactions WHERE realm_id = $1 AND message_id = $2 ORDER BY id`,
      [message.realmId, message.id],
    );
    return MessageReactions.restore(message.id, rows);
  }

  async insert(realmId: number, messageId: number, r: Reaction): Promise<void> {
    await this.em.query(
      `INSERT INTO reactions (realm_id, message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES ($1, $2, $3, $4, $5, $6)`,
      [realmId, messageId, r.userId, r.emojiName, r.emojiCode, r.reactionType],
    );
  }

  async delete(messageId: number, r: Pick<Reaction, 'userId' | 'emojiCode' | 'reactionType'>): Promise<void> {
    await this.em.query(`DELETE FROM reactions WHERE message_id = $1 AND user_id = $2 AND emoji_code = $3 AND reaction_type = $4`, [
      messageId,
      r.userId,
      r.emojiCode,
      r.reactionType,
    ]);
  }
}
