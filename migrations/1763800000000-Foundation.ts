import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Organizations, users and bots, user groups (system and named) with their memberships. */
export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE realms (
        id serial PRIMARY KEY,
        string_id text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        deactivated boolean NOT NULL DEFAULT false,
        date_created timestamptz NOT NULL DEFAULT now(),
        org_type smallint NOT NULL DEFAULT 0,
        plan_type smallint NOT NULL DEFAULT 1,
        default_language text NOT NULL DEFAULT 'en',
        invite_required boolean NOT NULL DEFAULT true,
        emails_restricted_to_domains boolean NOT NULL DEFAULT false,
        disallow_disposable_email_addresses boolean NOT NULL DEFAULT true,
        waiting_period_threshold integer NOT NULL DEFAULT 0,
        allow_message_editing boolean NOT NULL DEFAULT true,
        message_content_edit_limit_seconds integer DEFAULT 600,
        message_content_delete_limit_seconds integer DEFAULT 600,
        move_messages_within_stream_limit_seconds integer DEFAULT 604800,
        move_messages_between_streams_limit_seconds integer DEFAULT 604800,
        message_edit_history_visibility_policy smallint NOT NULL DEFAULT 1,
        message_retention_days integer NOT NULL DEFAULT -1,
        enable_spectator_access boolean NOT NULL DEFAULT false,
        topics_policy smallint NOT NULL DEFAULT 2,
        require_unique_names boolean NOT NULL DEFAULT false,
        name_changes_disabled boolean NOT NULL DEFAULT false,
        email_changes_disabled boolean NOT NULL DEFAULT false,
        avatar_changes_disabled boolean NOT NULL DEFAULT false,
        password_auth_enabled boolean NOT NULL DEFAULT true,
        presence_disabled boolean NOT NULL DEFAULT false,
        digest_emails_enabled boolean NOT NULL DEFAULT false,
        send_welcome_emails boolean NOT NULL DEFAULT true,
        CONSTRAINT realms_string_id_key UNIQUE (string_id)
      )`);
    await q.query(`
      CREATE TABLE users (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        email text NOT NULL,
        delivery_email text NOT NULL,
        full_name text NOT NULL,
        password_hash text,
        api_key text NOT NULL,
        role smallint NOT NULL DEFAULT 400,
        is_active boolean NOT NULL DEFAULT true,
        is_bot boolean NOT NULL DEFAULT false,
        bot_type smallint,
        bot_owner_id integer REFERENCES users (id),
        is_system_bot boolean NOT NULL DEFAULT false,
        date_joined timestamptz NOT NULL DEFAULT now(),
        timezone text NOT NULL DEFAULT '',
        avatar_version integer NOT NULL DEFAULT 1,
        default_sending_stream_id integer,
        default_events_register_stream_id integer,
        default_all_public_streams boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE UNIQUE INDEX users_realm_delivery_email_key ON users (realm_id, lower(delivery_email))`);
    await q.query(`CREATE UNIQUE INDEX users_realm_email_key ON users (realm_id, lower(email))`);
    await q.query(`CREATE UNIQUE INDEX users_api_key_key ON users (api_key)`);
    await q.query(`CREATE INDEX users_realm_active_idx ON users (realm_id, is_active)`);
    await q.query(`CREATE INDEX users_bot_owner_idx ON users (bot_owner_id) WHERE bot_owner_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE user_groups (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        name text,
        description text NOT NULL DEFAULT '',
        is_system_group boolean NOT NULL DEFAULT false,
        creator_id integer REFERENCES users (id),
        date_created timestamptz,
        deactivated boolean NOT NULL DEFAULT false,
        can_add_members_group_id integer REFERENCES user_groups (id),
        can_join_group_id integer REFERENCES user_groups (id),
        can_leave_group_id integer REFERENCES user_groups (id),
        can_manage_group_id integer REFERENCES user_groups (id),
        can_mention_group_id integer REFERENCES user_groups (id),
        can_remove_members_group_id integer REFERENCES user_groups (id)
      )`);
    // Named groups are unique per organization (case-sensitively, deactivated ones included);
    // anonymous groups (the values of permission settings) have no name.
    await q.query(`CREATE UNIQUE INDEX user_groups_realm_name_key ON user_groups (realm_id, name) WHERE name IS NOT NULL`);
    await q.query(`
      CREATE TABLE user_group_members (
        group_id integer NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users (id),
        realm_id integer NOT NULL REFERENCES realms (id),
        PRIMARY KEY (group_id, user_id)
      )`);
    await q.query(`CREATE INDEX user_group_members_user_idx ON user_group_members (user_id)`);
    await q.query(`
      CREATE TABLE user_group_subgroups (
        supergroup_id integer NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
        subgroup_id integer NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
        realm_id integer NOT NULL REFERENCES realms (id),
        PRIMARY KEY (supergroup_id, subgroup_id),
        CHECK (supergroup_id <> subgroup_id)
      )`);
    await q.query(`CREATE INDEX user_group_subgroups_sub_idx ON user_group_subgroups (subgroup_id)`);

    // The organization's permission settings: one row per setting, pointing at a user group
    // (named, or an anonymous group holding the setting's members and subgroups).
    await q.query(`
      CREATE TABLE realm_group_settings (
        realm_id integer NOT NULL REFERENCES realms (id),
        setting text NOT NULL,
        group_id integer NOT NULL REFERENCES user_groups (id),
        PRIMARY KEY (realm_id, setting)
      )`);

    // Allowed email domains (sign-ups, invitations, user creation when the organization
    // restricts emails to its domains).
    await q.query(`
      CREATE TABLE realm_domains (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        domain text NOT NULL,
        allow_subdomains boolean NOT NULL DEFAULT false,
        CONSTRAINT realm_domains_realm_domain_key UNIQUE (realm_id, domain)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE realm_domains, realm_group_settings, user_group_subgroups, user_group_members, user_groups, users, realms`);
  }
}
