import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drafts, saved snippets, invitations (single-use and reusable links), the count of invitation
 * emails sent (daily limit) and the outbox of emails waiting for delivery.
 */
export class OrgContent1764300000000 implements MigrationInterface {
  name = 'OrgContent1764300000000';

  async up(q: QueryRunner): Promise<void> {
    // type: '' (unaddressed), 'stream' (channel_id set) or 'private' (direct_user_ids: the
    // participants a client sees). last_edit_time keeps the microseconds clients send.
    await q.query(`
      CREATE TABLE drafts (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        type text NOT NULL CHECK (type IN ('', 'stream', 'private')),
        channel_id integer REFERENCES channels (id),
        direct_user_ids integer[] NOT NULL DEFAULT '{}',
        topic text NOT NULL DEFAULT '',
        content text NOT NULL,
        last_edit_time timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX drafts_user_time_idx ON drafts (user_id, last_edit_time)`);

    await q.query(`
      CREATE TABLE saved_snippets (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        title text NOT NULL,
        content text NOT NULL,
        date_created timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX saved_snippets_user_idx ON saved_snippets (user_id)`);

    // Single-use invitations (Zulip's PreregistrationUser with its Confirmation). status:
    // 0 pending, 1 used, 2 revoked. Channel and group ids are the sign-up plan; channels and
    // groups are never deleted (only archived / deactivated).
    await q.query(`
      CREATE TABLE invitations (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        email text NOT NULL,
        referred_by_id integer NOT NULL REFERENCES users (id),
        invited_as smallint NOT NULL,
        channel_ids integer[] NOT NULL DEFAULT '{}',
        group_ids integer[] NOT NULL DEFAULT '{}',
        include_realm_default_subscriptions boolean NOT NULL DEFAULT false,
        notify_referrer_on_join boolean NOT NULL DEFAULT true,
        welcome_message_custom_text text,
        invited_at timestamptz NOT NULL,
        expiry_date timestamptz,
        confirmation_key text NOT NULL,
        status smallint NOT NULL DEFAULT 0,
        CONSTRAINT invitations_confirmation_key_key UNIQUE (confirmation_key)
      )`);
    await q.query(`CREATE INDEX invitations_realm_referrer_idx ON invitations (realm_id, referred_by_id)`);
    await q.query(`CREATE INDEX invitations_realm_email_idx ON invitations (realm_id, lower(email))`);

    // Reusable invitation links; a revoked link loses its key.
    await q.query(`
      CREATE TABLE multiuse_invites (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        referred_by_id integer NOT NULL REFERENCES users (id),
        invited_as smallint NOT NULL,
        channel_ids integer[] NOT NULL DEFAULT '{}',
        group_ids integer[] NOT NULL DEFAULT '{}',
        include_realm_default_subscriptions boolean NOT NULL DEFAULT false,
        welcome_message_custom_text text,
        date_created timestamptz NOT NULL,
        expiry_date timestamptz,
        confirmation_key text,
        status smallint NOT NULL DEFAULT 0,
        CONSTRAINT multiuse_invites_confirmation_key_key UNIQUE (confirmation_key)
      )`);
    await q.query(`CREATE INDEX multiuse_invites_realm_referrer_idx ON multiuse_invites (realm_id, referred_by_id)`);

    // Invitation emails sent, for the per-organization daily limit (Zulip's invites_sent::day).
    await q.query(`
      CREATE TABLE invitation_sends (
        id bigserial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        sent_at timestamptz NOT NULL,
        count integer NOT NULL
      )`);
    await q.query(`CREATE INDEX invitation_sends_realm_time_idx ON invitation_sends (realm_id, sent_at)`);

    // Emails written in the transaction that decides to send them; a delivery worker (or an
    // operator) picks up the rows whose sent_at is null.
    await q.query(`
      CREATE TABLE email_outbox (
        id bigserial PRIMARY KEY,
        realm_id integer REFERENCES realms (id),
        kind text NOT NULL,
        to_address text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        sent_at timestamptz
      )`);
    await q.query(`CREATE INDEX email_outbox_unsent_idx ON email_outbox (id) WHERE sent_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_outbox, invitation_sends, multiuse_invites, invitations, saved_snippets, drafts`);
  }
}
