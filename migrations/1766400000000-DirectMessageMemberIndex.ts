import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's direct-message conversations (register's `recent_private_conversations`) by the user, not only by the conversation. */
export class DirectMessageMemberIndex1766400000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX direct_message_group_members_user_idx ON direct_message_group_members (user_id, group_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX direct_message_group_members_user_idx`);
  }
}
