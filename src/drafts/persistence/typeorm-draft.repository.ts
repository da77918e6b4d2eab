import { Draft, type DraftState, type DraftType, type ReminderView, type ScheduledMessageState } from '@app/domain/drafts';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DraftQueries,
  DraftRepository,
  type SavedSnippetRecord,
  SavedSnippetRepository,
  type UserListParts,
  type UserLists,
} from '../application/draft.ports.js';
import { returnedRows } from '../../shared/persistence/rows.js';
import { REMINDER_VIEW_SQL, type ReminderViewRow, toReminderView } from './typeorm-reminder.repository.js';
import { SCHEDULED_MESSAGES_OF_OWNER_SQL, type ScheduledMessageRow, toScheduledMessageState } from './typeorm-scheduled-message.repository.js';

/** A `drafts` row read with DRAFT_COLUMNS. */
interface DraftRow {
  id: number;
  user_id: number;
  type: DraftType;
  channel_id: number | null;
  direct_user_ids: number[];
  topic: string;
  content: string;
  /** extract(epoch ...) as float8: seconds with the stored microseconds. */
  ts: number;
}

/** A `saved_snippets` row (id, title, content, date_created). */
interface SavedSnippetRow {
  id: number;
  title: string;
  content: string;
  date_created: Date;
}

const toSnippet = (r: SavedSnippetRow): SavedSnippetRecord => ({ id: r.id, title: r.title, content: r.content, dateCreated: r.date_created });

const DRAFT_COLUMNS = `id, user_id, type, channel_id, direct_user_ids, topic, content, extract(epoch FROM last_edit_time)::float8 AS ts`;

function toState(r: DraftRow): DraftState {
  const to = r.type === 'stream' ? [r.channel_id!] : r.type === 'private' ? r.direct_user_ids : [];
  return { id: r.id, ownerId: r.user_id, type: r.type, to, topic: r.topic, content: r.content, timestamp: r.ts };
}

/** The columns of a draft: the channel for channel drafts, the shown participants for direct ones. */
function toColumns(d: DraftState): [DraftType, number | null, number[], string, string, number] {
  return [
    d.type,
    d.type === 'stream' ? d.to[0] : null,
    d.type === 'private' ? d.to : [],
    d.topic,
    d.content,
    d.timestamp,
  ];
}

export class TypeOrmDraftRepository extends DraftRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async insert(realmId: number, drafts: readonly Draft[]): Promise<number[]> {
    if (drafts.length === 0) return [];
    const params: unknown[] = [realmId];
    const values = drafts.map((d) => {
      const s = d.snapshot();
      params.push(s.ownerId, ...toColumns(s));
      const n = params.length;
      return `($1, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}::int[], $${n - 2}, $${n - 1}, to_timestamp($${n}::float8))`;
    });
    const rows: { id: number }[] = await this.em.query(
      `INSERT INTO drafts (realm_id, user_id, type, channel_id, direct_user_ids, topic, content, last_edit_time)
       VALUES ${values.join(', ')} RETURNING id`,
      params,
    );
    // One statement draws the serial ids in VALUES order.
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  async findOwned(realmId: number, ownerId: number, draftId: number): Promise<Draft | null> {
    const [row]: DraftRow[] = await this.em.query(
      `SELECT ${DRAFT_COLUMNS} FROM drafts WHERE realm_id = $1 AND user_id = $2 AND id = $3 FOR UPDATE`,
      [realmId, ownerId, draftId],
    );
    return row === undefined ? null : Draft.restore(toState(row));
  }

  async save(realmId: number, draft: Draft): Promise<void> {
    const s = draft.snapshot();
    await this.em.query(
      `UPDATE drafts SET type = $3, channel_id = $4, direct_user_ids = $5::int[], topic = $6, content = $7,
         last_edit_time = to_timestamp($8::float8)
       WHERE realm_id = $1 AND id = $2`,
      [realmId, s.id, ...toColumns(s)],
    );
  }

  async delete(realmId: number, draftId: number): Promise<void> {
    await this.em.query(`DELETE FROM drafts WHERE realm_id = $1 AND id = $2`, [realmId, draftId]);
  }
}

export class TypeOrmSavedSnippetRepository extends SavedSnippetRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async insert(s: { realmId: number; userId: number; title: string; content: string; now: Date }): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO saved_snippets (realm_id, user_id, title, content, date_created) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [s.realmId, s.userId, s.title, s.content, s.now],
    );
    return row.id;
  }

  async lockOwned(realmId: number, userId: number, snippetId: number): Promise<boolean> {
    const rows: { id: number }[] = await this.em.query(`SELECT id FROM saved_snippets WHERE realm_id = $1 AND user_id = $2 AND id = $3 FOR UPDATE`, [
      realmId,
      userId,
      snippetId,
    ]);
    return rows.length > 0;
  }

  async update(realmId: number, snippetId: number, change: { title?: string; content?: string }): Promise<SavedSnippetRecord> {
    const [row] = returnedRows<SavedSnippetRow>(
      await this.em.query(
        `UPDATE saved_snippets SET title = coalesce($3, title), content = coalesce($4, content) WHERE realm_id = $1 AND id = $2
         RETURNING id, title, content, date_created`,
        [realmId, snippetId, change.title ?? null, change.content ?? null],
      ),
    );
    return toSnippet(row);
  }

  async delete(realmId: number, snippetId: number): Promise<void> {
    await this.em.query(`DELETE FROM saved_snippets WHERE realm_id = $1 AND id = $2`, [realmId, snippetId]);
  }
}

@Injectable()
export class TypeOrmDraftQueries extends DraftQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async drafts(realmId: number, userId: number): Promise<DraftState[]> {
    const rows: DraftRow[] = await this.ds.query(
      `SELECT ${DRAFT_COLUMNS} FROM drafts WHERE realm_id = $1 AND user_id = $2 ORDER BY last_edit_time, id`,
      [realmId, userId],
    );
    return rows.map(toState);
  }

  async savedSnippets(realmId: number, userId: number): Promise<SavedSnippetRecord[]> {
    const rows: SavedSnippetRow[] = await this.ds.query(
      `SELECT id, title, content, date_created FROM saved_snippets WHERE realm_id = $1 AND user_id = $2 ORDER BY id`,
      [realmId, userId],
    );
    return rows.map(toSnippet);
  }

  async reminders(realmId: number, userId: number): Promise<ReminderView[]> {
    const rows: ReminderViewRow[] = await this.ds.query(REMINDER_VIEW_SQL, [realmId, userId]);
    return rows.map(toReminderView);
  }

  async scheduledMessages(realmId: number, userId: number): Promise<ScheduledMessageState[]> {
    const rows: ScheduledMessageRow[] = await this.ds.query(SCHEDULED_MESSAGES_OF_OWNER_SQL, [realmId, userId]);
    return rows.map(toScheduledMessageState);
  }

  /** The statements of the four lists above as JSON columns (timestamps come as text). */
  async userLists(realmId: number, userId: number, parts: UserListParts): Promise<UserLists> {
    const asJson = (sql: string, order: string) => `(SELECT coalesce(json_agg(x ORDER BY ${order}), '[]') FROM (${sql}) x)`;
    const columns = {
      drafts: parts.drafts && asJson(`SELECT ${DRAFT_COLUMNS}, last_edit_time FROM drafts WHERE realm_id = $1 AND user_id = $2`, 'x.last_edit_time, x.id'),
      saved_snippets: parts.savedSnippets && asJson(`SELECT id, title, content, date_created FROM saved_snippets WHERE realm_id = $1 AND user_id = $2`, 'x.id'),
      reminders: parts.reminders && asJson(REMINDER_VIEW_SQL, 'x.scheduled_at, x.id'),
      scheduled_messages: parts.scheduledMessages && asJson(SCHEDULED_MESSAGES_OF_OWNER_SQL, 'x.scheduled_at, x.id'),
    };
    const asked = Object.entries(columns).filter((c): c is [string, string] => c[1] !== false);
    const out: UserLists = { drafts: [], savedSnippets: [], reminders: [], scheduledMessages: [] };
    if (asked.length === 0) return out;
    const [row]: UserListsRow[] = await this.ds.query(`SELECT ${asked.map(([name, sql]) => `${sql} AS ${name}`).join(', ')}`, [realmId, userId]);
    const dated = <T extends { scheduled_at: string }>(r: T) => ({ ...r, scheduled_at: new Date(r.scheduled_at) });
    out.drafts = (row.drafts ?? []).map(toState);
    out.savedSnippets = (row.saved_snippets ?? []).map((r) => toSnippet({ ...r, date_created: new Date(r.date_created) }));
    out.reminders = (row.reminders ?? []).map((r) => toReminderView(dated(r)));
    out.scheduledMessages = (row.scheduled_messages ?? []).map((r) => toScheduledMessageState(dated(r)));
    return out;
  }
}

/** A row type as `json_agg` gives it: timestamps as text. */
type AsJson<R, K extends keyof R> = Omit<R, K> & Record<K, string>;

/** The row of `userLists`: each asked list as JSON rows of its own statement (absent: not asked). */
interface UserListsRow {
  drafts?: (DraftRow & { last_edit_time: string })[];
  saved_snippets?: AsJson<SavedSnippetRow, 'date_created'>[];
  reminders?: AsJson<ReminderViewRow, 'scheduled_at'>[];
  scheduled_messages?: AsJson<ScheduledMessageRow, 'scheduled_at'>[];
}
