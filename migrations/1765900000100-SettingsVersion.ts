import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version per organization for the servers' settings caches: `realms.settings_version` takes a
 * new value from one global sequence (never reused, so a version names one state of one
 * organization) whenever anything a cache holds changes, in the same transaction, by triggers:
 * the realms row itself, its permission settings, its user groups with their members and
 * subgroups, its linkifiers, and its users when added or when their role or activity changes.
 * Every change also notifies `svc_settings` with the organization id (delivered at COMMIT).
 * Child tables use statement-level triggers over transition tables, so a bulk write bumps each
 * organization once.
 */
const CHILD_TABLES = ['realm_group_settings', 'user_groups', 'user_group_members', 'user_group_subgroups', 'linkifiers'];

export class SettingsVersion1765900000100 implements MigrationInterface {
  name = 'SettingsVersion1765900000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE realm_settings_version_seq`);
    await q.query(`ALTER TABLE realms ADD COLUMN settings_version bigint NOT NULL DEFAULT nextval('realm_settings_version_seq')`);

    // Any change of the realms row is a new version (unless the statement sets one itself, as
    // the child tables' triggers do), announced to every server.
    await q.query(`
      CREATE FUNCTION realm_settings_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.settings_version = OLD.settings_version THEN
          NEW.settings_version := nextval('realm_settings_version_seq');
        END IF;
        PERFORM pg_notify('svc_settings', NEW.id::text);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER realms_settings_version BEFORE UPDATE ON realms
      FOR EACH ROW EXECUTE FUNCTION realm_settings_row_changed()`);

    // A write to a table the caches read: every organization it touched gets a new version.
    await q.query(`
      CREATE FUNCTION realm_settings_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          UPDATE realms SET settings_version = nextval('realm_settings_version_seq')
          WHERE id IN (SELECT realm_id FROM changed_rows UNION SELECT realm_id FROM old_rows);
        ELSE
          UPDATE realms SET settings_version = nextval('realm_settings_version_seq')
          WHERE id IN (SELECT realm_id FROM changed_rows);
        END IF;
        RETURN NULL;
      END $$`);
    // TRUNCATE names no organization: every one gets a new version.
    await q.query(`
      CREATE FUNCTION realm_settings_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE realms SET settings_version = nextval('realm_settings_version_seq');
        RETURN NULL;
      END $$`);
    for (const table of CHILD_TABLES) await triggersOn(q, table, 'realm_settings_rows_changed');

    // Users: a new user, or a changed role or activity (group membership reads is_active).
    await q.query(`
      CREATE FUNCTION realm_settings_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          UPDATE realms SET settings_version = nextval('realm_settings_version_seq')
          WHERE id IN (SELECT n.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id
                       WHERE n.role IS DISTINCT FROM o.role OR n.is_active IS DISTINCT FROM o.is_active
                          OR n.realm_id IS DISTINCT FROM o.realm_id
                       UNION
                       SELECT o.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id
                       WHERE n.realm_id IS DISTINCT FROM o.realm_id);
        ELSE
          UPDATE realms SET settings_version = nextval('realm_settings_version_seq')
          WHERE id IN (SELECT realm_id FROM changed_rows);
        END IF;
        RETURN NULL;
      END $$`);
    await triggersOn(q, 'users', 'realm_settings_users_changed');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...CHILD_TABLES, 'users']) {
      for (const op of ['insert', 'update', 'delete', 'truncate']) await q.query(`DROP TRIGGER ${table}_settings_${op} ON ${table}`);
    }
    await q.query(`DROP TRIGGER realms_settings_version ON realms`);
    await q.query(`DROP FUNCTION realm_settings_users_changed()`);
    await q.query(`DROP FUNCTION realm_settings_all_changed()`);
    await q.query(`DROP FUNCTION realm_settings_rows_changed()`);
    await q.query(`DROP FUNCTION realm_settings_row_changed()`);
    await q.query(`ALTER TABLE realms DROP COLUMN settings_version`);
    await q.query(`DROP SEQUENCE realm_settings_version_seq`);
  }
}

/** Statement-level triggers (a trigger with transition tables takes one event). */
async function triggersOn(q: QueryRunner, table: string, fn: string): Promise<void> {
  await q.query(`CREATE TRIGGER ${table}_settings_insert AFTER INSERT ON ${table}
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await q.query(`CREATE TRIGGER ${table}_settings_update AFTER UPDATE ON ${table}
    REFERENCING NEW TABLE AS changed_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await q.query(`CREATE TRIGGER ${table}_settings_delete AFTER DELETE ON ${table}
    REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await q.query(`CREATE TRIGGER ${table}_settings_truncate AFTER TRUNCATE ON ${table}
    FOR EACH STATEMENT EXECUTE FUNCTION realm_settings_all_changed()`);
}
