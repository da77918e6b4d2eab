import type { EntityManager } from 'typeorm';
import { type AttachmentRecord, AttachmentRepository } from '../application/message.ports.js';

/**
 * An `attachments` row as ATTACHMENT_SELECT reads it: `size` is a bigint (a string through
 * node-postgres), `message_ids` the ids of the messages linking it, ascending (an ARRAY()
 * subquery: empty, never null).
 */
interface AttachmentRow {
  id: number;
  realm_id: number;
  owner_id: number;
  path_id: string;
  name: string;
  size: string;
  content_type: string;
  create_time: Date;
  message_ids: number[];
}

const toAttachment = (r: AttachmentRow): AttachmentRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  pathId: r.path_id,
  name: r.name,
  size: Number(r.size),
  contentType: r.content_type,
  createTime: r.create_time,
  messageIds: r.message_ids,
});

const ATTACHMENT_SELECT = `SELECT a.*, ARRAY(SELECT am.message_id FROM attachment_messages am WHERE am.attachment_id = a.id ORDER BY 1) AS message_ids
  FROM attachments a`;

/** Advisory lock space (two-key form) of an organization's upload quota. */
const UPLOAD_QUOTA_LOCK = 0x5ec0002;

export class TypeOrmAttachmentRepository extends AttachmentRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async byPaths(realmId: number, pathIds: readonly string[]): Promise<AttachmentRecord[]> {
    if (pathIds.length === 0) return [];
    const rows: AttachmentRow[] = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.path_id = ANY($2::text[])`, [realmId, pathIds]);
    return rows.map(toAttachment);
  }
  async byPath(realmId: number, pathId: string): Promise<AttachmentRecord | null> {
    const [row]: AttachmentRow[] = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.path_id = $2`, [realmId, pathId]);
    return row ? toAttachment(row) : null;
  }
  async ofMessage(messageId: number): Promise<AttachmentRecord[]> {
    const rows: AttachmentRow[] = await this.em.query(
      `${ATTACHMENT_SELECT} WHERE a.id IN (SELECT attachment_id FROM attachment_messages WHERE message_id = $1)`,
      [messageId],
    );
    return rows.map(toAttachment);
  }
  async link(messageId: number, attachmentIds: readonly number[]): Promise<void> {
    if (attachmentIds.length === 0) return;
    await this.em.query(
      `INSERT INTO attachment_messages (attachment_id, message_id) SELECT a, $1 FROM unnest($2::int[]) AS a ON CONFLICT DO NOTHING`,
      [messageId, attachmentIds],
    );
  }
  async unlink(messageId: number, attachmentIds: readonly number[]): Promise<void> {
    if (attachmentIds.length === 0) return;
    await this.em.query(`DELETE FROM attachment_messages WHERE message_id = $1 AND attachment_id = ANY($2::int[])`, [messageId, attachmentIds]);
  }
  async insert(a: Omit<AttachmentRecord, 'id' | 'messageIds'> & { realmId: number }): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [a.realmId, a.ownerId, a.pathId, a.name, a.size, a.contentType, a.createTime],
    );
    return row.id;
  }
  async byIds(realmId: number, ids: readonly number[]): Promise<AttachmentRecord[]> {
    if (ids.length === 0) return [];
    const rows: AttachmentRow[] = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.id = ANY($2::int[]) ORDER BY a.id`, [realmId, ids]);
    return rows.map(toAttachment);
  }
  async ofOwner(realmId: number, ownerId: number): Promise<AttachmentRecord[]> {
    const rows: AttachmentRow[] = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.owner_id = $2 ORDER BY a.id`, [realmId, ownerId]);
    return rows.map(toAttachment);
  }
  async lockOwned(realmId: number, ownerId: number, id: number): Promise<AttachmentRecord | null> {
    const [row]: AttachmentRow[] = await this.em.query(`${ATTACHMENT_SELECT} WHERE a.realm_id = $1 AND a.owner_id = $2 AND a.id = $3 FOR UPDATE OF a`, [
      realmId,
      ownerId,
      id,
    ]);
    return row ? toAttachment(row) : null;
  }
  async remove(realmId: number, id: number): Promise<void> {
    await this.em.query(`DELETE FROM attachments WHERE realm_id = $1 AND id = $2`, [realmId, id]);
  }
  async usedSpace(realmId: number): Promise<number> {
    const [row]: { used: string }[] = await this.em.query(`SELECT COALESCE(SUM(size), 0)::bigint AS used FROM attachments WHERE realm_id = $1`, [realmId]);
    return Number(row.used);
  }
  async lockUsedSpace(realmId: number): Promise<void> {
    await this.em.query(`SELECT pg_advisory_xact_lock($1::int, $2::int)`, [UPLOAD_QUOTA_LOCK, realmId]);
  }
}
