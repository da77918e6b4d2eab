import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The organization's upload quota (Zulip's Realm.custom_upload_quota_gb): none by default. */
export class UploadQuota1765800000100 implements MigrationInterface {
  name = 'UploadQuota1765800000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms ADD COLUMN custom_upload_quota_gb integer NULL CHECK (custom_upload_quota_gb >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms DROP COLUMN custom_upload_quota_gb`);
  }
}
