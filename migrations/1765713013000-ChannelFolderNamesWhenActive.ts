import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Channel folder names are unique among the folders that are not archived (Zulip's
 * unique_realm_folder_name_when_not_archived), as the service checks them: the index covered
 * archived folders too, so taking the name of an archived folder failed with a 500.
 */
export class ChannelFolderNamesWhenActive1765713013000 implements MigrationInterface {
  name = 'ChannelFolderNamesWhenActive1765713013000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX channel_folders_realm_name_key`);
    await q.query(`CREATE UNIQUE INDEX channel_folders_realm_name_key ON channel_folders (realm_id, lower(name)) WHERE NOT is_archived`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX channel_folders_realm_name_key`);
    await q.query(`CREATE UNIQUE INDEX channel_folders_realm_name_key ON channel_folders (realm_id, lower(name))`);
  }
}
