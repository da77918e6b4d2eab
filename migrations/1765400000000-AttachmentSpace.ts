import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The organization's used upload space (sum of its attachments' sizes) from the index alone. */
export class AttachmentSpace1765400000000 implements MigrationInterface {
  name = 'AttachmentSpace1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX attachments_realm_size_idx ON attachments (realm_id) INCLUDE (size)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX attachments_realm_size_idx`);
  }
}
