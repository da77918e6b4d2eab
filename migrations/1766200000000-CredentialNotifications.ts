import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The servers cache the accounts API-key authentication reads (src/users/application/
 * credential-cache.ts): `svc_settings` is notified with the organization id (delivered at
 * COMMIT) when a user's key, emails, bot type, activity, role or organization changes, or the
 * user is deleted. The organization's own row (deactivation) and every settings version already
 * notify (SettingsVersion). Statement-level over transition tables: a bulk write notifies each
 * organization once (PostgreSQL also folds repeated notifications of one transaction).
 */
export class CredentialNotifications1766200000000 implements MigrationInterface {
  name = 'CredentialNotifications1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION users_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          PERFORM pg_notify('svc_settings', realm_id::text) FROM (
            SELECT n.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id
            WHERE (n.api_key, n.email, n.delivery_email, n.bot_type, n.is_active, n.role, n.realm_id)
                  IS DISTINCT FROM (o.api_key, o.email, o.delivery_email, o.bot_type, o.is_active, o.role, o.realm_id)
            UNION
            SELECT o.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.realm_id IS DISTINCT FROM o.realm_id) r;
        ELSE
          PERFORM pg_notify('svc_settings', realm_id::text) FROM (SELECT DISTINCT realm_id FROM old_rows) r;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER users_credentials_update AFTER UPDATE ON users
      REFERENCING NEW TABLE AS changed_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION users_credentials_changed()`);
    await q.query(`
      CREATE TRIGGER users_credentials_delete AFTER DELETE ON users
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION users_credentials_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER users_credentials_delete ON users`);
    await q.query(`DROP TRIGGER users_credentials_update ON users`);
    await q.query(`DROP FUNCTION users_credentials_changed()`);
  }
}
