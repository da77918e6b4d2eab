import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Versions for the organization-wide lists of POST /register, which the servers cache:
 * - the organization's settings version (SettingsVersion) also changes on any write of custom
 *   profile fields, allowed domains, code playgrounds, custom emoji and channel folders;
 * - the organization's user list gets a version of its own (`realm_user_list_versions`, from one
 *   global sequence, so a version names one state of one organization's list): it changes,
 *   in the same transaction, when a user is added or removed, when one of the fields the list
 *   shows changes (addresses, name, role, activity, bot fields, time zone, avatar version,
 *   address visibility, join date, organization), and on any write of custom profile field
 *   values. Other user writes (API key, password, personal settings) leave it alone, and the
 *   list's changes leave the settings version alone. Every organization has a row from its
 *   first user on (existing ones get theirs here). Readers read the version in the statement
 *   that needs the list, so no notification is needed.
 * Statement-level triggers over transition tables: a bulk write bumps each organization once.
 */
const SETTINGS_TABLES = ['custom_profile_fields', 'realm_domains', 'code_playgrounds', 'realm_emoji', 'channel_folders'];
const LISTED_USER_COLUMNS = [
  'realm_id',
  'email',
  'delivery_email',
  'full_name',
  'role',
  'is_active',
  'is_bot',
  'bot_type',
  'bot_owner_id',
  'is_system_bot',
  'date_joined',
  'timezone',
  'avatar_version',
  'default_sending_stream_id',
  'default_events_register_stream_id',
  'default_all_public_streams',
  'email_address_visibility',
];

/** Statement-level triggers named `<table>_<name>_<op>` running `fn` (TRUNCATE: `truncateFn`). */
async function triggersOn(q: QueryRunner, table: string, name: string, fn: string, truncateFn: string): Promise<void> {
  await q.query(`CREATE TRIGGER ${table}_${name}_insert AFTER INSERT ON ${table}
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await q.query(`CREATE TRIGGER ${table}_${name}_update AFTER UPDATE ON ${table}
    REFERENCING NEW TABLE AS changed_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await q.query(`CREATE TRIGGER ${table}_${name}_delete AFTER DELETE ON ${table}
    REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await q.query(`CREATE TRIGGER ${table}_${name}_truncate AFTER TRUNCATE ON ${table}
    FOR EACH STATEMENT EXECUTE FUNCTION ${truncateFn}()`);
}

async function dropTriggersOn(q: QueryRunner, table: string, name: string): Promise<void> {
  for (const op of ['insert', 'update', 'delete', 'truncate']) await q.query(`DROP TRIGGER ${table}_${name}_${op} ON ${table}`);
}

/** A new version for the user list of every organization in `realms` (a query of realm ids). */
const bumpUserLists = (realms: string) => `
  INSERT INTO realm_user_list_versions (realm_id, version)
  SELECT r.realm_id, nextval('realm_user_list_version_seq') FROM (${realms}) r(realm_id) WHERE r.realm_id IS NOT NULL
  ON CONFLICT (realm_id) DO UPDATE SET version = EXCLUDED.version`;

export class RegisterSettingsVersion1766300000000 implements MigrationInterface {
  name = 'RegisterSettingsVersion1766300000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of SETTINGS_TABLES) await triggersOn(q, table, 'settings', 'realm_settings_rows_changed', 'realm_settings_all_changed');

    await q.query(`CREATE SEQUENCE realm_user_list_version_seq`);
    await q.query(`
      CREATE TABLE realm_user_list_versions (
        realm_id integer PRIMARY KEY REFERENCES realms (id) ON DELETE CASCADE,
        version bigint NOT NULL
      )`);
    await q.query(`INSERT INTO realm_user_list_versions (realm_id, version) SELECT id, nextval('realm_user_list_version_seq') FROM realms`);
    const differs = (n: string, o: string) =>
      `(${LISTED_USER_COLUMNS.map((c) => `${n}.${c}`).join(', ')}) IS DISTINCT FROM (${LISTED_USER_COLUMNS.map((c) => `${o}.${c}`).join(', ')})`;
    await q.query(`
      CREATE FUNCTION realm_user_list_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          ${bumpUserLists(`SELECT n.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id WHERE ${differs('n', 'o')}
                           UNION
                           SELECT o.realm_id FROM changed_rows n JOIN old_rows o ON o.id = n.id WHERE n.realm_id IS DISTINCT FROM o.realm_id`)};
        ELSE
          ${bumpUserLists(`SELECT DISTINCT realm_id FROM changed_rows`)};
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION realm_user_list_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          ${bumpUserLists(`SELECT realm_id FROM changed_rows UNION SELECT realm_id FROM old_rows`)};
        ELSE
          ${bumpUserLists(`SELECT DISTINCT realm_id FROM changed_rows`)};
        END IF;
        RETURN NULL;
      END $$`);
    // TRUNCATE names no organization: every list gets a new version.
    await q.query(`
      CREATE FUNCTION realm_user_list_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE realm_user_list_versions SET version = nextval('realm_user_list_version_seq');
        RETURN NULL;
      END $$`);
    await triggersOn(q, 'users', 'user_list', 'realm_user_list_users_changed', 'realm_user_list_all_changed');
    await triggersOn(q, 'custom_profile_field_values', 'user_list', 'realm_user_list_rows_changed', 'realm_user_list_all_changed');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropTriggersOn(q, 'custom_profile_field_values', 'user_list');
    await dropTriggersOn(q, 'users', 'user_list');
    await q.query(`DROP FUNCTION realm_user_list_all_changed()`);
    await q.query(`DROP FUNCTION realm_user_list_rows_changed()`);
    await q.query(`DROP FUNCTION realm_user_list_users_changed()`);
    await q.query(`DROP TABLE realm_user_list_versions`);
    await q.query(`DROP SEQUENCE realm_user_list_version_seq`);
    for (const table of SETTINGS_TABLES) await dropTriggersOn(q, table, 'settings');
  }
}
