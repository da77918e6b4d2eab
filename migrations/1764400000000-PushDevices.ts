import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mobile push: the organization's UUID (how the push relay knows it), client devices with their
 * E2EE push registration, the queue of registrations waiting for the relay, and the legacy
 * APNs/FCM tokens of POST /users/me/apns_device_token.
 */
export class PushDevices1764400000000 implements MigrationInterface {
  name = 'PushDevices1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms ADD COLUMN uuid uuid NOT NULL DEFAULT gen_random_uuid()`);
    await q.query(`ALTER TABLE realms ADD CONSTRAINT realms_uuid_key UNIQUE (uuid)`);

    // Zulip's Device. push_token_id: the token the relay accepted (the device is "active");
    // pending_push_token_id: a registration sent to the relay and not answered yet. Token IDs
    // are the clients' signed 64-bit integers; push_key_id an unsigned 32-bit one.
    await q.query(`
      CREATE TABLE devices (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        date_created timestamptz NOT NULL,
        push_key bytea,
        push_key_id bigint CHECK (push_key_id BETWEEN 0 AND 4294967295),
        push_token_kind text CHECK (push_token_kind IN ('fcm', 'apns')),
        push_token_id bigint,
        pending_push_token_id bigint,
        push_token_last_updated_timestamp timestamptz,
        push_registration_error_code text
      )`);
    await q.query(`CREATE INDEX devices_user_idx ON devices (realm_id, user_id)`);
    await q.query(`CREATE INDEX devices_user_push_token_idx ON devices (user_id, push_token_id) WHERE push_token_id IS NOT NULL`);

    // At most one registration per device waits for the relay; a newer one replaces it (new id).
    await q.query(`
      CREATE TABLE push_registration_jobs (
        id bigserial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
        token_id text NOT NULL,
        bouncer_public_key text NOT NULL,
        encrypted_push_registration text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        queued_at timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        CONSTRAINT push_registration_jobs_device_key UNIQUE (device_id)
      )`);
    await q.query(`CREATE INDEX push_registration_jobs_due_idx ON push_registration_jobs (next_attempt_at)`);

    // Zulip's PushDeviceToken: kind 1 = APNs (tokens compared case-insensitively), 2 = FCM.
    await q.query(`
      CREATE TABLE push_device_tokens (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        kind smallint NOT NULL CHECK (kind IN (1, 2)),
        token text NOT NULL,
        ios_app_id text,
        last_updated timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX push_device_tokens_apns_key ON push_device_tokens (user_id, kind, lower(token)) WHERE kind = 1`);
    await q.query(`CREATE UNIQUE INDEX push_device_tokens_fcm_key ON push_device_tokens (user_id, kind, token) WHERE kind = 2`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE push_device_tokens, push_registration_jobs, devices`);
    await q.query(`ALTER TABLE realms DROP COLUMN uuid`);
  }
}
