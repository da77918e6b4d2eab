import type { StoredThumbnail } from '@app/domain/messages';
import { Role } from '@app/domain/users';
import { DataSource, type EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { BACKGROUND_SQL } from '../../shared/persistence/statement-counter.js';
import { returnedRows } from '../../shared/persistence/rows.js';
import {
  type ClaimedImage,
  type ImageAttachmentRecord,
  ImageAttachmentRepository,
  type ImageMessage,
  type ImageMessageReader,
  type ThumbnailOutcome,
  ThumbnailQueue,
} from '../application/thumbnail.ports.js';

/** An `image_attachments` row as the statements below select it. */
interface ImageRow {
  id: number;
  realm_id: number;
  attachment_id: number;
  path_id: string;
  original_width_px: number;
  original_height_px: number;
  frames: number;
  content_type: string;
  thumbnail_metadata: StoredThumbnailJson[];
  status: 'pending' | 'done' | 'failed';
}

/** Zulip's StoredThumbnailFormat as it keeps it in `thumbnail_metadata` (snake_case, so the column reads as Zulip's). */
interface StoredThumbnailJson {
  extension: string;
  max_width: number;
  max_height: number;
  animated: boolean;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
}

interface ImageMessageRow {
  id: number;
  content: string;
  rendered_content: string;
  channel_id: number | null;
  invite_only: boolean | null;
  history_public_to_subscribers: boolean | null;
}

interface ReaderRow {
  message_id: number;
  user_id: number;
  flags: number;
  subscribed: boolean;
  is_guest: boolean;
}

const IMAGE_COLUMNS = `id, realm_id, attachment_id, path_id, original_width_px, original_height_px, frames, content_type, thumbnail_metadata, status`;

const toThumbnail = (t: StoredThumbnailJson): StoredThumbnail => ({
  extension: t.extension,
  maxWidth: t.max_width,
  maxHeight: t.max_height,
  animated: t.animated,
  contentType: t.content_type,
  width: t.width,
  height: t.height,
  byteSize: t.byte_size,
});
const toJson = (t: StoredThumbnail): StoredThumbnailJson => ({
  extension: t.extension,
  max_width: t.maxWidth,
  max_height: t.maxHeight,
  animated: t.animated,
  content_type: t.contentType,
  width: t.width,
  height: t.height,
  byte_size: t.byteSize,
});

const toImage = (r: ImageRow): ImageAttachmentRecord => ({
  id: r.id,
  realmId: r.realm_id,
  attachmentId: r.attachment_id,
  pathId: r.path_id,
  originalWidth: r.original_width_px,
  originalHeight: r.original_height_px,
  frames: r.frames,
  contentType: r.content_type,
  thumbnails: r.thumbnail_metadata.map(toThumbnail),
  status: r.status,
});

export class TypeOrmImageAttachmentRepository extends ImageAttachmentRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async insert(i: Parameters<ImageAttachmentRepository['insert']>[0]): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO image_attachments (realm_id, attachment_id, path_id, original_width_px, original_height_px, frames, content_type, status, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [i.realmId, i.attachmentId, i.pathId, i.width, i.height, i.frames, i.contentType, i.failure === null ? 'pending' : 'failed', i.failure],
    );
    return row.id;
  }

  async previewable(realmId: number, pathIds: readonly string[]): Promise<ImageAttachmentRecord[]> {
    if (pathIds.length === 0) return [];
    const rows: ImageRow[] = await this.em.query(
      `SELECT ${IMAGE_COLUMNS} FROM image_attachments
       WHERE realm_id = $1 AND path_id = ANY($2::text[]) AND status <> 'failed' ORDER BY id FOR KEY SHARE`,
      [realmId, pathIds],
    );
    return rows.map(toImage);
  }

  async byPath(realmId: number, pathId: string): Promise<ImageAttachmentRecord | null> {
    const [row]: ImageRow[] = await this.em.query(`SELECT ${IMAGE_COLUMNS} FROM image_attachments WHERE realm_id = $1 AND path_id = $2`, [realmId, pathId]);
    return row === undefined ? null : toImage(row);
  }

  async finish(id: number, leaseToken: string, outcome: ThumbnailOutcome): Promise<boolean> {
    const rows = returnedRows<{ id: number }>(
      await this.em.query(
        // FOR UPDATE (not the weaker lock of an UPDATE): waits for the renderings holding FOR KEY SHARE.
        `WITH held AS (SELECT id FROM image_attachments WHERE id = $1 AND lease_token = $2 AND status = 'pending' FOR UPDATE)
         UPDATE image_attachments i
         SET status = $3, thumbnail_metadata = coalesce($4::jsonb, i.thumbnail_metadata), last_error = $5, lease_token = NULL, lease_until = NULL
         FROM held WHERE i.id = held.id RETURNING i.id`,
        [
          id,
          leaseToken,
          outcome.status,
          outcome.status === 'done' ? JSON.stringify(outcome.thumbnails.map(toJson)) : null,
          outcome.status === 'failed' ? outcome.error.slice(0, 2000) : null,
        ],
      ),
    );
    return rows.length > 0;
  }

  async lockMessagesOf(attachmentId: number): Promise<ImageMessage[]> {
    const rows: ImageMessageRow[] = await this.em.query(
      `SELECT m.id, m.content, m.rendered_content, m.channel_id, c.invite_only, c.history_public_to_subscribers
       FROM messages m LEFT JOIN channels c ON c.id = m.channel_id
       WHERE m.id IN (SELECT message_id FROM attachment_messages WHERE attachment_id = $1)
       ORDER BY m.id FOR UPDATE OF m`,
      [attachmentId],
    );
    return rows.map((r) => ({
      id: r.id,
      content: r.content,
      renderedContent: r.rendered_content,
      channel: r.channel_id === null ? null : { inviteOnly: r.invite_only === true, historyPublicToSubscribers: r.history_public_to_subscribers !== false },
    }));
  }

  async updateRenderings(updates: readonly { id: number; renderedContent: string }[]): Promise<void> {
    if (updates.length === 0) return;
    await this.em.query(
      `UPDATE messages m SET rendered_content = v.rendered FROM unnest($1::int[], $2::text[]) AS v(id, rendered) WHERE m.id = v.id`,
      [updates.map((u) => u.id), updates.map((u) => u.renderedContent)],
    );
  }

  async readersOf(messageIds: readonly number[]): Promise<ImageMessageReader[]> {
    if (messageIds.length === 0) return [];
    const rows: ReaderRow[] = await this.em.query(
      `SELECT um.message_id, um.user_id, um.flags, u.role = ${Role.GUEST} AS is_guest,
         (u.is_active AND m.channel_id IS NOT NULL AND EXISTS (
           SELECT 1 FROM subscriptions s WHERE s.channel_id = m.channel_id AND s.user_id = um.user_id AND s.active)) AS subscribed
       FROM user_messages um JOIN messages m ON m.id = um.message_id JOIN users u ON u.id = um.user_id
       WHERE um.message_id = ANY($1::int[])
       ORDER BY um.message_id, um.user_id`,
      [messageIds],
    );
    return rows.map((r) => ({ messageId: r.message_id, userId: r.user_id, flags: r.flags, subscribed: r.subscribed, isGuest: r.is_guest }));
  }
}

interface ClaimedRow extends ImageRow {
  attempts: number;
  lease_token: string;
}

/**
 * The pending `image_attachments` rows on the pool: each claim is one statement (its own
 * transaction). Its row lock (FOR NO KEY UPDATE) does not wait for renderings, which hold FOR
 * KEY SHARE; only recording the outcome does.
 */
@Injectable()
export class TypeOrmThumbnailQueue extends ThumbnailQueue {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async claimNext(o: { now: Date; leaseUntil: Date; id?: number }): Promise<ClaimedImage | null> {
    const rows = returnedRows<ClaimedRow>(
      await this.ds.query(
        `${BACKGROUND_SQL}UPDATE image_attachments i SET attempts = i.attempts + 1, lease_token = gen_random_uuid(), lease_until = $2
         WHERE i.id = (
           SELECT id FROM image_attachments
           WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < $1) AND ($3::int IS NULL OR id = $3)
           ORDER BY id LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED)
         RETURNING ${IMAGE_COLUMNS.replace(/(\w+)/g, 'i.$1')}, i.attempts, i.lease_token`,
        [o.now, o.leaseUntil, o.id ?? null],
      ),
    );
    const r = rows[0];
    return r === undefined ? null : { ...toImage(r), attempts: r.attempts, leaseToken: r.lease_token };
  }
}
