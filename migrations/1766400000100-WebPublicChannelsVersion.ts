import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization record the servers cache says whether a channel of it is web-public and not
 * archived (server_settings' realm_web_public_access_enabled, the spectator checks): a channel
 * that becomes or stops being one bumps its organization's settings version (whose trigger on
 * realms notifies the other servers). Other channel writes leave it alone. Statement-level
 * triggers over transition tables, as the other settings triggers.
 */
export class WebPublicChannelsVersion1766400000100 implements MigrationInterface {
  name = 'WebPublicChannelsVersion1766400000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION realm_web_public_channels_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          UPDATE realms SET settings_version = nextval('realm_settings_version_seq')
          WHERE id IN (SELECT n.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id
                       WHERE (n.is_web_public AND NOT n.is_archived) IS DISTINCT FROM (o.is_web_public AND NOT o.is_archived)
                          OR (n.realm_id IS DISTINCT FROM o.realm_id AND (n.is_web_public OR o.is_web_public))
                       UNION
                       SELECT o.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id
                       WHERE n.realm_id IS DISTINCT FROM o.realm_id AND o.is_web_public);
        ELSE
          UPDATE realms SET settings_version = nextval('realm_settings_version_seq')
          WHERE id IN (SELECT realm_id FROM changed_rows WHERE is_web_public AND NOT is_archived);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER channels_web_public_insert AFTER INSERT ON channels
      REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION realm_web_public_channels_changed()`);
    await q.query(`CREATE TRIGGER channels_web_public_update AFTER UPDATE ON channels
      REFERENCING NEW TABLE AS changed_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION realm_web_public_channels_changed()`);
    await q.query(`CREATE TRIGGER channels_web_public_delete AFTER DELETE ON channels
      REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION realm_web_public_channels_changed()`);
    await q.query(`CREATE TRIGGER channels_web_public_truncate AFTER TRUNCATE ON channels
      FOR EACH STATEMENT EXECUTE FUNCTION realm_settings_all_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const op of ['insert', 'update', 'delete', 'truncate']) await q.query(`DROP TRIGGER channels_web_public_${op} ON channels`);
    await q.query(`DROP FUNCTION realm_web_public_channels_changed()`);
  }
}
