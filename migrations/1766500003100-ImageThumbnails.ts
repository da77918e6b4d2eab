import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Thumbnails of uploaded images (Zulip's ImageAttachment), which are also the thumbnail
 * worker's queue. An upload whose header reads as an image of an accepted type gets a row with
 * its dimensions (after the EXIF orientation), frame count and claimed type, `pending`; a worker
 * of any server process claims it (`FOR UPDATE SKIP LOCKED`, a fresh `lease_token` and
 * `lease_until`, one more attempt), makes the thumbnails, then records them in
 * `thumbnail_metadata` (Zulip's StoredThumbnailFormat list) as `done`, or `failed` (a corrupt
 * image, a decompression bomb, or a worker that kept dying on it) with the reason. The row goes
 * with its attachment.
 *
 * `server_secrets`: keys the server signs with, made on first use and shared by every process
 * (`user_uploads`: the temporary upload URLs).
 */
export class ImageThumbnails1766500003100 implements MigrationInterface {
  name = 'ImageThumbnails1766500003100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE image_attachments (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        attachment_id integer NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
        path_id text NOT NULL,
        original_width_px integer NOT NULL,
        original_height_px integer NOT NULL,
        frames integer NOT NULL,
        content_type text NOT NULL,
        thumbnail_metadata jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        lease_token uuid,
        lease_until timestamptz,
        last_error text,
        CONSTRAINT image_attachments_attachment_key UNIQUE (attachment_id),
        CONSTRAINT image_attachments_path_id_key UNIQUE (path_id)
      )`);
    await q.query(`CREATE INDEX image_attachments_pending_idx ON image_attachments (id) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE server_secrets (
        name text PRIMARY KEY,
        secret text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE server_secrets, image_attachments`);
  }
}
