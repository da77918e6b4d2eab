import { FLAG_BITS, HISTORICAL_FLAGS, type Reaction, RESOLVED_TOPIC_PREFIX, type Submessage, type TopicVariantRow } from '@app/domain/messages';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  type CompiledNarrow,
  type Condition,
  type FetchedMessage,
  MessageQueries,
  type NarrowMatch,
  type RangeResult,
  type SenderInfo,
} from '../application/message-queries.js';
import { INT4_MAX, isStorableId } from '../../shared/application/ids.js';
import { RECIPIENT_DIRECT } from './typeorm-conversation.repository.js';
import type { FetchedMessageRow } from './message.rows.js';
import { toMessageRecord } from './typeorm-message.repository.js';
import { REACTION_COLUMNS } from './typeorm-reaction.repository.js';
import { SUBMESSAGE_COLUMNS } from './typeorm-submessage.repository.js';

/** Larger than any message id (Zulip's LARGER_THAN_INT4_MAX). */
export const NEWEST = 10_000_000_000_000_000;

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;

const SENDER_COLUMNS = `u.id, u.email, u.delivery_email, u.email_address_visibility, u.full_name, u.avatar_version, u.avatar_path`;
/** A `users` row as SENDER_COLUMNS selects it. */
interface SenderRow {
  id: number;
  email: string;
  delivery_email: string;
  email_address_visibility: number;
  full_name: string;
  avatar_version: number;
  avatar_path: string | null;
}

/** A direct conversation's participant: SENDER_COLUMNS and the conversation's recipient id. */
interface ParticipantRow extends SenderRow {
  recipient_id: number;
}

/** A reaction as REACTION_COLUMNS names it, with its message. */
type MessageReactionRow = Reaction & { messageId: number };
const senderInfo = (r: SenderRow): SenderInfo => ({
  id: r.id,
  email: r.email,
  deliveryEmail: r.delivery_email,
  emailAddressVisibility: r.email_address_visibility,
  fullName: r.full_name,
  avatarVersion: r.avatar_version,
  avatarPath: r.avatar_path,
});

/** Builds `FROM … WHERE …` for a narrow, with numbered parameters. */
class QueryBuilder {
  readonly params: unknown[] = [];
  param(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }
}

function conditionSql(c: Condition, q: QueryBuilder): string {
  const flags = `coalesce(um.flags, ${HISTORICAL_FLAGS})`;
  let sql: string;
  switch (c.kind) {
    case 'channel':
      // Never null (a direct message has no channel), so that a negated channel term keeps direct messages, as Zulip's does.
      sql = `(m.channel_id IS NOT NULL AND m.channel_id = ${q.param(c.channelId)})`;
      break;
    case 'topic':
      sql = `(m.channel_id IS NOT NULL AND lower(m.topic) = lower(${q.param(c.topic)}))`;
      break;
    case 'sender':
      sql = `m.sender_id = ${q.param(c.userId)}`;
      break;
    case 'recipient':
      sql = c.recipientId === null ? 'false' : `m.recipient_id = ${q.param(c.recipientId)}`;
      break;
    case 'dm_including':
      sql = `(m.channel_id IS NULL AND m.recipient_id IN (SELECT r.id FROM recipients r JOIN direct_message_group_members g
        ON g.group_id = r.type_id WHERE r.type = ${RECIPIENT_DIRECT} AND g.user_id = ${q.param(c.userId)}))`;
      break;
    case 'is':
      if (c.what === 'dm') sql = 'm.channel_id IS NULL';
      else if (c.what === 'starred') sql = `(${flags} & ${FLAG_BITS.starred}) <> 0`;
      else if (c.what === 'unread') sql = `(${flags} & ${FLAG_BITS.read}) = 0`;
      else if (c.what === 'mentioned') sql = `(${flags} & ${MENTION_BITS}) <> 0`;
      else if (c.what === 'alerted') sql = `(${flags} & ${FLAG_BITS.has_alert_word}) <> 0`;
      else sql = `(m.channel_id IS NOT NULL AND m.topic LIKE ${q.param(`${RESOLVED_TOPIC_PREFIX}%`)})`;
      break;
    case 'id':
      sql = isStorableId(c.id) ? `m.id = ${q.param(c.id)}` : 'false';
      break;
    case 'search': {
      const pattern = q.param(`%${c.text.replace(/[\\%_]/g, (x) => `\\${x}`)}%`);
      sql = `(m.content ILIKE ${pattern} OR m.topic ILIKE ${pattern})`;
      break;
    }
    case 'has':
      sql = {
        attachment: 'm.has_attachment',
        link: `m.rendered_content LIKE '%<a %'`,
        image: `m.rendered_content LIKE '%<img %'`,
        reaction: 'EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)',
      }[c.what];
      break;
  }
  return c.negated ? `NOT (${sql})` : sql;
}

function fromWhere(realmId: number, userId: number, n: CompiledNarrow, q: QueryBuilder): string {
  if (n.spectator === true) {
    // Spectators hold no rows: every message of the web-public channels, read (Zulip's flags for them).
    const realm = q.param(realmId);
    const base = `FROM messages m CROSS JOIN (SELECT ${FLAG_BITS.read}::int AS flags) um
       WHERE m.realm_id = ${realm} AND m.channel_id IN (SELECT c.id FROM channels c WHERE c.realm_id = ${realm} AND c.is_web_public AND NOT c.is_archived)`;
    return [base, ...n.conditions.map((c) => conditionSql(c, q))].join(' AND ');
  }
  const user = q.param(userId);
  const realm = q.param(realmId);
  const base = n.channelHistory
    ? `FROM messages m ${n.channelHistory.requireRow ? 'JOIN' : 'LEFT JOIN'} user_messages um ON um.message_id = m.id AND um.user_id = ${user}
       WHERE m.realm_id = ${realm} AND m.channel_id = ${q.param(n.channelHistory.channelId)}`
    : `FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ${user} AND m.realm_id = ${realm}`;
  return [base, ...n.conditions.map((c) => conditionSql(c, q))].join(' AND ');
}

@Injectable()
export class TypeOrmMessageQueries extends MessageQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  private async select(where: string, q: QueryBuilder, extra: string): Promise<FetchedMessage[]> {
    const rows: FetchedMessageRow[] = await this.ds.query(`SELECT m.*, um.flags AS um_flags ${where} ${extra}`, q.params);
    return rows.map((r) => ({ message: toMessageRecord(r), flags: r.um_flags }));
  }

  async range(
    realmId: number,
    userId: number,
    n: CompiledNarrow,
    anchorIn: number | 'newest' | 'oldest' | 'first_unread',
    numBefore: number,
    numAfter: number,
    includeAnchor: boolean,
  ): Promise<RangeResult> {
    let anchor: number;
    if (anchorIn === 'oldest') anchor = 0;
    else if (anchorIn === 'newest') anchor = NEWEST;
    else if (anchorIn === 'first_unread') {
      const q = new QueryBuilder();
      const where = fromWhere(realmId, userId, { ...n, conditions: [...n.conditions, { kind: 'is', what: 'unread', negated: false }] }, q);
      const [row]: { id: number | null }[] = await this.ds.query(`SELECT min(m.id) AS id ${where}`, q.params);
      anchor = row?.id ?? NEWEST;
    } else anchor = Math.max(0, anchorIn);

    const sqlAnchor = Math.min(anchor, INT4_MAX); // message ids are int4
    // Zulip's post_process_limited_query: "found" means fewer rows than asked, or anchored at an end.
    const q1 = new QueryBuilder();
    const w1 = fromWhere(realmId, userId, n, q1);
    const older =
      numBefore === 0
        ? []
        : (await this.select(`${w1} AND m.id < ${q1.param(sqlAnchor)}`, q1, `ORDER BY m.id DESC LIMIT ${numBefore}`)).reverse();
    // An anchor past every message id (`newest`, the most common fetch): nothing at or after it to read.
    let newer: FetchedMessage[] = [];
    if (anchor <= INT4_MAX) {
      const q2 = new QueryBuilder();
      const w2 = fromWhere(realmId, userId, n, q2);
      newer = await this.select(`${w2} AND m.id >= ${q2.param(anchor)}`, q2, `ORDER BY m.id ASC LIMIT ${numAfter + 1}`);
    }
    const anchorRow = newer[0]?.message.id === anchor ? newer[0] : null;
    const after = (anchorRow ? newer.slice(1) : newer).slice(0, numAfter);
    return {
      messages: [...older, ...(anchorRow && includeAnchor ? [anchorRow] : []), ...after],
      anchor,
      foundAnchor: anchorRow !== null,
      foundOldest: anchor === 0 || older.length < numBefore,
      foundNewest: anchor === NEWEST || after.length < numAfter,
    };
  }

  async byIds(realmId: number, userId: number, n: CompiledNarrow, ids: readonly number[]): Promise<FetchedMessage[]> {
    if (ids.length === 0) return [];
    const q = new QueryBuilder();
    const where = fromWhere(realmId, userId, n, q);
    return this.select(`${where} AND m.id = ANY(${q.param(ids)}::int[])`, q, 'ORDER BY m.id');
  }

  async matching(realmId: number, userId: number, n: CompiledNarrow, ids: readonly number[]): Promise<NarrowMatch[]> {
    if (ids.length === 0) return [];
    // Only received messages count: a channel term filters instead of opening the channel's history.
    const conditions: Condition[] = n.channelHistory
      ? [{ kind: 'channel', channelId: n.channelHistory.channelId, negated: false }, ...n.conditions]
      : n.conditions;
    const q = new QueryBuilder();
    const where = fromWhere(realmId, userId, { channelHistory: null, conditions }, q);
    const rows: { id: number; topic: string; rendered_content: string }[] = await this.ds.query(
      `SELECT m.id, m.topic, m.rendered_content ${where} AND m.id = ANY(${q.param(ids)}::int[]) ORDER BY m.id`,
      q.params,
    );
    return rows.map((r) => ({ id: r.id, topic: r.topic, renderedContent: r.rendered_content }));
  }

  async topicVariants(realmId: number, channelId: number, rowsOf: number | null): Promise<TopicVariantRow[]> {
    const rows: { topic: string; max_id: number }[] = await this.ds.query(
      rowsOf === null
        ? `SELECT m.topic, max(m.id) AS max_id FROM messages m WHERE m.realm_id = $1 AND m.channel_id = $2 GROUP BY m.topic`
        : `SELECT m.topic, max(m.id) AS max_id FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = $3
           WHERE m.realm_id = $1 AND m.channel_id = $2 GROUP BY m.topic`,
      rowsOf === null ? [realmId, channelId] : [realmId, channelId, rowsOf],
    );
    return rows.map((r) => ({ topic: r.topic, maxId: r.max_id }));
  }

  async senders(ids: readonly number[]): Promise<Map<number, SenderInfo>> {
    if (ids.length === 0) return new Map();
    const rows: SenderRow[] = await this.ds.query(`SELECT ${SENDER_COLUMNS} FROM users u WHERE u.id = ANY($1::int[])`, [ids]);
    return new Map(rows.map((r) => [r.id, senderInfo(r)]));
  }

  async reactions(realmId: number, messageIds: readonly number[]): Promise<Map<number, Reaction[]>> {
    const out = new Map<number, Reaction[]>();
    if (messageIds.length === 0) return out;
    const rows: MessageReactionRow[] = await this.ds.query(
      `SELECT message_id AS "messageId", ${REACTION_COLUMNS} FROM reactions
       WHERE realm_id = $1 AND message_id = ANY($2::int[]) ORDER BY id`,
      [realmId, messageIds],
    );
    for (const { messageId, ...reaction } of rows) {
      const list = out.get(messageId) ?? [];
      list.push(reaction);
      out.set(messageId, list);
    }
    return out;
  }

  async submessages(realmId: number, messageIds: readonly number[]): Promise<Map<number, Submessage[]>> {
    const out = new Map<number, Submessage[]>();
    if (messageIds.length === 0) return out;
    const rows: Submessage[] = await this.ds.query(
      `SELECT ${SUBMESSAGE_COLUMNS} FROM submessages s JOIN messages m ON m.id = s.message_id
       WHERE m.realm_id = $1 AND s.message_id = ANY($2::int[]) ORDER BY s.id`,
      [realmId, messageIds],
    );
    for (const s of rows) {
      const list = out.get(s.messageId) ?? [];
      list.push(s);
      out.set(s.messageId, list);
    }
    return out;
  }

  async channelNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: number; name: string }[] = await this.ds.query(`SELECT id, name FROM channels WHERE id = ANY($1::int[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async directParticipants(recipientIds: readonly number[]): Promise<Map<number, SenderInfo[]>> {
    const out = new Map<number, SenderInfo[]>();
    if (recipientIds.length === 0) return out;
    const rows: ParticipantRow[] = await this.ds.query(
      `SELECT r.id AS recipient_id, ${SENDER_COLUMNS}
       FROM recipients r JOIN direct_message_group_members g ON g.group_id = r.type_id JOIN users u ON u.id = g.user_id
       WHERE r.id = ANY($1::int[]) AND r.type = ${RECIPIENT_DIRECT} ORDER BY u.id`,
      [recipientIds],
    );
    for (const r of rows) {
      const list = out.get(r.recipient_id) ?? [];
      list.push(senderInfo(r));
      out.set(r.recipient_id, list);
    }
    return out;
  }

  async realmStringId(realmId: number): Promise<string> {
    const [row]: { string_id: string }[] = await this.ds.query(`SELECT string_id FROM realms WHERE id = $1`, [realmId]);
    return row.string_id;
  }
}
