import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type ArchiveManifest, type ArchiveTable, type ExportType } from '@app/domain/exports';
import { Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { ServerConfig } from '../../shared/config/server-config.js';
import { OrganizationArchiver } from '../application/realm-exports.ports.js';
import { packArchive, TableFile } from '../infrastructure/archive-files.js';

/**
 * A row of `SELECT *` on a table the archive holds whole: written to the archive as it is, so
 * the export needs no list of each table's columns (a migration adding one exports it too).
 * Where the archiver reads fields, the row type names them (ExportedUserRow …).
 */
type ExportedRow = Readonly<Record<string, unknown>>;
/** A users row: the columns the archiver scrubs or decides by. */
type ExportedUserRow = ExportedRow & {
  id: number;
  delivery_email: string;
  password_hash: string | null;
  api_key: string;
  is_bot: boolean;
  allow_private_data_export: boolean;
  /** smallint; VISIBILITY_NOBODY hides the address. */
  email_address_visibility: number;
};
type ExportedMessageRow = ExportedRow & { id: number };
type ExportedAttachmentRow = ExportedRow & { path_id: string };
type ExportedAttachmentLinkRow = ExportedRow & { attachment_id: number; message_id: number };
interface OrganizationRow {
  id: number;
  string_id: string;
  name: string;
}
/** realm_emoji.file_name (the query takes only rows that have one). */
interface EmojiFileRow {
  file_name: string;
}
const BATCH = 1000;
/** users.email_address_visibility: nobody (Zulip's EMAIL_ADDRESS_VISIBILITY_NOBODY). */
const VISIBILITY_NOBODY = 4;

/** The messages an export holds ($1: the organization), by kind (Zulip's public and consent exports). */
const PUBLIC_CHANNEL_MESSAGE = `m.channel_id IN (SELECT id FROM channels WHERE realm_id = $1 AND NOT invite_only)`;
const MESSAGES_OF: Record<ExportType, string> = {
  public: PUBLIC_CHANNEL_MESSAGE,
  full_with_consent: `(${PUBLIC_CHANNEL_MESSAGE} OR EXISTS (SELECT 1 FROM user_messages um JOIN users u ON u.id = um.user_id
    WHERE um.message_id = m.id AND u.allow_private_data_export))`,
  full_without_consent: 'true',
};
/** Whose user_messages rows (read, starred … flags: private data) an export holds ($1: the message ids). */
const USER_MESSAGES_OF: Record<ExportType, string | null> = {
  public: null,
  full_with_consent: `SELECT um.* FROM user_messages um JOIN users u ON u.id = um.user_id AND u.allow_private_data_export WHERE um.message_id = ANY($1)`,
  full_without_consent: `SELECT um.* FROM user_messages um WHERE um.message_id = ANY($1)`,
};

/**
 * Writes an organization's archive (see ARCHIVE_FORMAT) from one read-only REPEATABLE READ
 * snapshot: the tables into a private folder under UPLOAD_TEMP_DIR, messages and what hangs on
 * them in keyset batches (bounded memory), the files of the exported uploads and custom emoji
 * copied beside them; then packed, and the folder removed. Users lose their password hashes and
 * API keys; a hidden email address (visibility "nobody") of a user who did not consent becomes
 * `user<id>@<FAKE_EMAIL_DOMAIN>` unless the export is a full one without consent.
 */
@Injectable()
export class TypeOrmOrganizationArchiver extends OrganizationArchiver {
  constructor(
    private readonly ds: DataSource,
    private readonly config: ServerConfig,
  ) {
    super();
  }

  async write(o: { realmId: number; type: ExportType; target: string; now: Date }): Promise<{ size: number; counts: Partial<Record<ArchiveTable, number>> }> {
    await mkdir(this.config.uploadTempDir, { recursive: true });
    const dir = await mkdtemp(join(this.config.uploadTempDir, 'export-'));
    const runner = this.ds.createQueryRunner();
    let open = false;
    try {
      await runner.connect();
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      await mkdir(join(dir, 'uploads'));
      await mkdir(join(dir, 'emoji'));
      const counts = await this.writeTables(runner, dir, o.realmId, o.type);
      const [realm]: OrganizationRow[] = await runner.query(`SELECT id, string_id, name FROM realms WHERE id = $1`, [o.realmId]);
      await runner.query('COMMIT');
      open = false;
      const manifest: ArchiveManifest = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        exported_at: o.now.toISOString(),
        export_type: o.type,
        organization: { id: realm.id, string_id: realm.string_id, name: realm.name },
        counts,
      };
      await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      const entries = ['manifest.json', ...Object.keys(counts).map((t) => `${t}.json`), 'uploads', 'emoji'];
      return { size: await packArchive(dir, entries, o.target), counts };
    } finally {
      if (open) await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async writeTables(q: QueryRunner, dir: string, realmId: number, type: ExportType): Promise<Partial<Record<ArchiveTable, number>>> {
    const counts: Partial<Record<ArchiveTable, number>> = {};
    const whole = async <R extends ExportedRow>(table: ArchiveTable, sql: string, map: (r: R) => ExportedRow = (r) => r) => {
      const rows: R[] = await q.query(sql, [realmId]);
      const file = await TableFile.create(join(dir, `${table}.json`));
      await file.add(rows.map(map));
      await file.close();
      counts[table] = file.rows;
    };
    await whole('realm', `SELECT * FROM realms WHERE id = $1`);
    await whole<ExportedUserRow>('users', `SELECT * FROM users WHERE realm_id = $1 ORDER BY id`, (u) => this.scrubUser(u, type));
    await whole('user_groups', `SELECT * FROM user_groups WHERE realm_id = $1 ORDER BY id`);
    await whole('user_group_members', `SELECT * FROM user_group_members WHERE realm_id = $1 ORDER BY group_id, user_id`);
    await whole('user_group_subgroups', `SELECT * FROM user_group_subgroups WHERE realm_id = $1 ORDER BY supergroup_id, subgroup_id`);
    await whole('channels', `SELECT * FROM channels WHERE realm_id = $1 ORDER BY id`);
    await whole('subscriptions', `SELECT * FROM subscriptions WHERE realm_id = $1 ORDER BY id`);
    await whole('realm_emoji', `SELECT * FROM realm_emoji WHERE realm_id = $1 ORDER BY id`);
    await this.copyEmoji(q, dir, realmId);
    const attachmentIds = await this.writeMessages(q, dir, realmId, type, counts);
    const attachments = `SELECT * FROM attachments WHERE realm_id = $1 ${type === 'full_without_consent' ? '' : 'AND id = ANY($2)'} ORDER BY id`;
    const rows: ExportedAttachmentRow[] = await q.query(attachments, type === 'full_without_consent' ? [realmId] : [realmId, [...attachmentIds]]);
    const file = await TableFile.create(join(dir, 'attachments.json'));
    await file.add(rows);
    await file.close();
    counts.attachments = file.rows;
    for (const a of rows) await this.copyIn(join(this.config.uploadsDir, a.path_id), join(dir, 'uploads', a.path_id));
    return counts;
  }

  /** messages, user_messages, reactions and attachment_messages, in batches of messages; returns the attachments they link. */
  private async writeMessages(q: QueryRunner, dir: string, realmId: number, type: ExportType, counts: Partial<Record<ArchiveTable, number>>): Promise<Set<number>> {
    const tables = ['messages', 'user_messages', 'reactions', 'attachment_messages'] as const;
    const files = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await TableFile.create(join(dir, `${t}.json`))] as const)));
    const attachmentIds = new Set<number>();
    for (let last = 0; ; ) {
      const messages: ExportedMessageRow[] = await q.query(
        `SELECT m.*, CASE WHEN m.channel_id IS NULL THEN
           (SELECT array_agg(g.user_id ORDER BY g.user_id) FROM recipients r JOIN direct_message_group_members g ON g.group_id = r.type_id
            WHERE r.id = m.recipient_id AND r.type = 3) END AS direct_user_ids
         FROM messages m WHERE m.realm_id = $1 AND m.id > $2 AND ${MESSAGES_OF[type]} ORDER BY m.id LIMIT ${BATCH}`,
        [realmId, last],
      );
      if (messages.length === 0) break;
      const ids = messages.map((m) => m.id);
      await files.messages.add(messages);
      const userMessages = USER_MESSAGES_OF[type];
      if (userMessages !== null) {
        const userMessageRows: ExportedRow[] = await q.query(userMessages, [ids]);
        await files.user_messages.add(userMessageRows);
      }
      const reactions: ExportedRow[] = await q.query(`SELECT * FROM reactions WHERE message_id = ANY($1) ORDER BY id`, [ids]);
      await files.reactions.add(reactions);
      const links: ExportedAttachmentLinkRow[] = await q.query(`SELECT * FROM attachment_messages WHERE message_id = ANY($1)`, [ids]);
      for (const l of links) attachmentIds.add(l.attachment_id);
      await files.attachment_messages.add(links);
      if (messages.length < BATCH) break;
      last = ids[ids.length - 1];
    }
    for (const t of tables) {
      await files[t].close();
      counts[t] = files[t].rows;
    }
    return attachmentIds;
  }

  private scrubUser(u: ExportedUserRow, type: ExportType): ExportedRow {
    const { password_hash: _hash, api_key: _key, ...user } = u;
    const consents = type === 'full_with_consent' && user.allow_private_data_export;
    if (type !== 'full_without_consent' && !consents && user.email_address_visibility === VISIBILITY_NOBODY && !user.is_bot) {
      user.delivery_email = `user${user.id}@${this.config.fakeEmailDomain}`;
    }
    return user;
  }

  private async copyEmoji(q: QueryRunner, dir: string, realmId: number): Promise<void> {
    const rows: EmojiFileRow[] = await q.query(`SELECT file_name FROM realm_emoji WHERE realm_id = $1 AND file_name IS NOT NULL`, [realmId]);
    const images = join(this.config.uploadsDir, 'avatars', String(realmId), 'emoji', 'images');
    for (const r of rows) {
      if (!/^[\w.-]+$/.test(r.file_name) || r.file_name.startsWith('.')) continue;
      await this.copyIn(join(images, r.file_name), join(dir, 'emoji', r.file_name));
      // The still image of an animated emoji, where there is one.
      const still = `still/${r.file_name.replace(/\.[^.]*$/, '')}.png`;
      await this.copyIn(join(images, still), join(dir, 'emoji', still));
    }
  }

  /** Copies a stored file into the archive's folder; a file missing on disk is left out (and logged by the import as missing). */
  private async copyIn(from: string, to: string): Promise<void> {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}
