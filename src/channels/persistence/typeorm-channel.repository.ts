import {
  Channel,
  CHANNEL_GROUP_SETTING_NAMES,
  type ChannelGroupSettingName,
  type ChannelState,
  type TopicsPolicy,
} from '@app/domain/channels';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { storableIds } from '../../shared/application/ids.js';
import { returnedRows } from '../../shared/persistence/rows.js';
import { anonymousGroupsColumn, groupIdsOfUser, settingValueOf } from '../../shared/persistence/group-setting-values.js';
import {
  type ChannelFolderRecord,
  ChannelQueries,
  type ChannelRecord,
  ChannelRepository,
  type MutedTopic,
  type NewChannel,
  type SubscriptionRecord,
} from '../application/channel.ports.js';
import { type ChannelFolderRow, toFolderRecord } from './typeorm-channel-folder.repository.js';
import { type SubscriptionRow, toSubscription } from './typeorm-subscription.repository.js';

/** The column of a channel's group setting. */
const settingColumn = (s: ChannelGroupSettingName): `${ChannelGroupSettingName}_id` => `${s}_id`;
const SETTING_COLUMNS = CHANNEL_GROUP_SETTING_NAMES.map(settingColumn);
/** Every channel read selects its row and its anonymous setting groups together. */
const channelColumns = (alias: string) => `${alias}.*, ${anonymousGroupsColumn(alias, SETTING_COLUMNS)} AS anonymous_groups`;
const CHANNEL_COLUMNS = channelColumns('channels');

/** The group-setting columns of a `channels` row (int4 ids of user groups). */
type SettingColumnsRow = Record<`${ChannelGroupSettingName}_id`, number>;

/** A `channels` row read with CHANNEL_COLUMNS: every column plus its anonymous setting groups (json). */
interface ChannelRow extends SettingColumnsRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  message_retention_days: number | null;
  is_archived: boolean;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  date_created: Date;
  creator_id: number | null;
  first_message_id: number | null;
  anonymous_groups: Record<string, { members: number[]; subgroups: number[] }>;
}

/** A channel row of `TypeOrmChannelQueries.records`: with its subscriber count and whether it is a default channel. */
interface ChannelRecordRow extends ChannelRow {
  subscriber_count: number;
  is_default: boolean;
}

/** Rows (read with CHANNEL_COLUMNS) → channel states. */
function toStates<R extends ChannelRow>(rows: R[]): (ChannelState & { row: R })[] {
  return rows.map((r) => ({
    row: r,
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    description: r.description,
    inviteOnly: r.invite_only,
    isWebPublic: r.is_web_public,
    historyPublicToSubscribers: r.history_public_to_subscribers,
    messageRetentionDays: r.message_retention_days,
    isArchived: r.is_archived,
    folderId: r.folder_id,
    topicsPolicy: r.topics_policy,
    dateCreated: r.date_created,
    creatorId: r.creator_id,
    firstMessageId: r.first_message_id,
    groupSettings: Object.fromEntries(
      CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, settingValueOf(r.anonymous_groups, r[settingColumn(s)])]),
    ) as ChannelState['groupSettings'],
  }));
}

export class TypeOrmChannelRepository extends ChannelRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  private async load(sql: string, params: unknown[]): Promise<Channel[]> {
    const rows: ChannelRow[] = await this.em.query(sql, params);
    return toStates(rows).map(({ row: _, ...state }) => Channel.restore(state));
  }

  async findById(realmId: number, channelId: number, forUpdate = false): Promise<Channel | null> {
    const [c] = await this.load(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE realm_id = $1 AND id = $2::bigint ${forUpdate ? 'FOR UPDATE' : ''}`, [
      realmId,
      channelId,
    ]);
    return c ?? null;
  }

  findByIds(realmId: number, channelIds: readonly number[]): Promise<Channel[]> {
    if (channelIds.length === 0) return Promise.resolve([]);
    return this.load(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE realm_id = $1 AND id = ANY($2::bigint[]) ORDER BY id`, [realmId, [...new Set(channelIds)]]);
  }

  findByIdsOrNames(realmId: number, channelIds: readonly number[], names: readonly string[]): Promise<Channel[]> {
    if (channelIds.length === 0 && names.length === 0) return Promise.resolve([]);
    return this.load(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE realm_id = $1 AND (id = ANY($2::bigint[]) OR lower(name) = ANY($3::text[])) ORDER BY id`, [
      realmId,
      [...new Set(channelIds)],
      [...new Set(names.map((n) => n.toLowerCase()))],
    ]);
  }

  findByNames(realmId: number, names: readonly string[], forUpdate = false): Promise<Channel[]> {
    return this.load(
      `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE realm_id = $1 AND lower(name) = ANY($2::text[]) ORDER BY id ${forUpdate ? 'FOR UPDATE' : ''}`,
      [realmId, names.map((n) => n.toLowerCase())],
    );
  }

  async nameTaken(realmId: number, name: string, exceptChannelId = 0): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM channels WHERE realm_id = $1 AND lower(name) = lower($2) AND id <> $3`, [
      realmId,
      name,
      exceptChannelId,
    ]);
    return rows.length > 0;
  }

  async insert(c: NewChannel): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO channels (realm_id, name, description, rendered_description, invite_only, is_web_public,
         history_public_to_subscribers, message_retention_days, topics_policy, folder_id, date_created, creator_id,
         ${SETTING_COLUMNS.join(', ')})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, ${SETTING_COLUMNS.map((_, i) => `$${i + 13}`).join(', ')})
       RETURNING id`,
      [
        c.realmId,
        c.name,
        c.description,
        c.renderedDescription,
        c.inviteOnly,
        c.isWebPublic,
        c.historyPublicToSubscribers,
        c.messageRetentionDays,
        c.topicsPolicy,
        c.folderId,
        c.dateCreated,
        c.creatorId,
        ...CHANNEL_GROUP_SETTING_NAMES.map((s) => c.groupIds[s]),
      ],
    );
    return row.id;
  }

  async save(c: Channel, renderedDescription: string, groupIds: Partial<Record<ChannelGroupSettingName, number>>): Promise<void> {
    const s = c.snapshot();
    const settings = Object.entries(groupIds);
    await this.em.query(
      `UPDATE channels SET name = $2, description = $3, rendered_description = $4, invite_only = $5, is_web_public = $6,
         history_public_to_subscribers = $7, message_retention_days = $8, is_archived = $9, folder_id = $10,
         topics_policy = $11 ${settings.map(([k], i) => `, ${k}_id = $${i + 12}`).join('')}
       WHERE id = $1`,
      [
        s.id,
        s.name,
        s.description,
        renderedDescription,
        s.inviteOnly,
        s.isWebPublic,
        s.historyPublicToSubscribers,
        s.messageRetentionDays,
        s.isArchived,
        s.folderId,
        s.topicsPolicy,
        ...settings.map(([, v]) => v),
      ],
    );
  }

  async activeChannelIds(realmId: number, channelIds: readonly number[]): Promise<Set<number>> {
    const ids = storableIds(channelIds);
    if (ids.length === 0) return new Set();
    const rows: { id: number }[] = await this.em.query(`SELECT id FROM channels WHERE realm_id = $1 AND id = ANY($2::int[]) AND NOT is_archived`, [
      realmId,
      ids,
    ]);
    return new Set(rows.map((r) => r.id));
  }

  async defaultChannelIds(realmId: number): Promise<Set<number>> {
    const rows: { channel_id: number }[] = await this.em.query(`SELECT channel_id FROM default_channels WHERE realm_id = $1`, [realmId]);
    return new Set(rows.map((r) => r.channel_id));
  }

  async setDefault(realmId: number, channelIds: readonly number[], isDefault: boolean): Promise<void> {
    if (channelIds.length === 0) return;
    await this.em.query(
      isDefault
        ? `INSERT INTO default_channels (channel_id, realm_id) SELECT c, $1 FROM unnest($2::int[]) AS c ON CONFLICT DO NOTHING`
        : `DELETE FROM default_channels WHERE realm_id = $1 AND channel_id = ANY($2::int[])`,
      [realmId, channelIds],
    );
  }

  async setTopicVisibility(
    realmId: number,
    userId: number,
    channelId: number,
    topic: string,
    policy: number | null,
    now: Date,
  ): Promise<boolean> {
    if (policy === null) {
      const gone = returnedRows<unknown>(
        await this.em.query(`DELETE FROM user_topics WHERE user_id = $1 AND channel_id = $2 AND lower(topic_name) = lower($3) RETURNING 1`, [
          userId,
          channelId,
          topic,
        ]),
      );
      return gone.length > 0;
    }
    const rows: unknown[] = await this.em.query(
      `INSERT INTO user_topics (realm_id, user_id, channel_id, topic_name, visibility_policy, last_updated)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, channel_id, lower(topic_name))
       DO UPDATE SET visibility_policy = EXCLUDED.visibility_policy, last_updated = EXCLUDED.last_updated
       WHERE user_topics.visibility_policy <> EXCLUDED.visibility_policy
       RETURNING 1`,
      [realmId, userId, channelId, topic, policy, now],
    );
    return rows.length > 0;
  }

  async mutedTopics(userIds: readonly number[]): Promise<Map<number, MutedTopic[]>> {
    const out = new Map<number, MutedTopic[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return out;
    const rows: { user_id: number; name: string; topic_name: string; last_updated: Date }[] = await this.em.query(
      `SELECT t.user_id, c.name, t.topic_name, t.last_updated FROM user_topics t JOIN channels c ON c.id = t.channel_id
       WHERE t.user_id = ANY($1::int[]) AND t.visibility_policy = 1 AND NOT c.is_archived ORDER BY t.id`,
      [userIds],
    );
    for (const r of rows) out.get(r.user_id)?.push([r.name, r.topic_name, r.last_updated]);
    return out;
  }

  async emailToken(
    realmId: number,
    channelId: number,
    creatorId: number,
    senderId: number,
    candidate: string,
    now: Date,
  ): Promise<string> {
    await this.em.query(
      `INSERT INTO channel_email_addresses (realm_id, channel_id, creator_id, sender_id, token, date_created)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (channel_id, creator_id, sender_id) DO NOTHING`,
      [realmId, channelId, creatorId, senderId, candidate, now],
    );
    const [row]: { token: string }[] = await this.em.query(
      `SELECT token FROM channel_email_addresses WHERE channel_id = $1 AND creator_id = $2 AND sender_id = $3`,
      [channelId, creatorId, senderId],
    );
    return row.token;
  }

  async hasMessagesOutsideEmptyTopic(channelId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM messages WHERE channel_id = $1 AND topic <> '' LIMIT 1`, [channelId]);
    return rows.length > 0;
  }
}

@Injectable()
export class TypeOrmChannelQueries extends ChannelQueries {
  private readonly em: EntityManager;

  constructor(ds: DataSource) {
    super();
    this.em = ds.manager;
  }

  async channelsUsingGroups(realmId: number, groupIds: readonly number[]): Promise<{ channelId: number; settings: string[] }[]> {
    const rows: (SettingColumnsRow & { id: number })[] = await this.em.query(
      `SELECT id, ${SETTING_COLUMNS.join(', ')} FROM channels
       WHERE realm_id = $1 AND NOT is_archived AND (${SETTING_COLUMNS.map((c) => `${c} = ANY($2::int[])`).join(' OR ')})
       ORDER BY id`,
      [realmId, groupIds],
    );
    return rows.map((r) => ({ channelId: r.id, settings: CHANNEL_GROUP_SETTING_NAMES.filter((s) => groupIds.includes(r[settingColumn(s)])) }));
  }

  /** The same queries inside a transaction (they then see its uncommitted writes). */
  static within(em: EntityManager): TypeOrmChannelQueries {
    return new TypeOrmChannelQueries({ manager: em } as DataSource);
  }

  private async records(where: string, params: unknown[]): Promise<ChannelRecord[]> {
    const rows: ChannelRecordRow[] = await this.em.query(
      `SELECT ${channelColumns('c')},
         (SELECT count(*)::int FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active
          WHERE s.channel_id = c.id AND s.active) AS subscriber_count,
         EXISTS (SELECT 1 FROM default_channels d WHERE d.channel_id = c.id) AS is_default
       FROM channels c WHERE ${where} ORDER BY c.name`,
      params,
    );
    return toStates(rows).map(({ row, ...state }) => ({
      ...state,
      renderedDescription: row.rendered_description,
      subscriberCount: row.subscriber_count,
      isDefault: row.is_default,
    }));
  }

  channels(realmId: number): Promise<ChannelRecord[]> {
    return this.records('c.realm_id = $1', [realmId]);
  }

  channelsByIds(realmId: number, channelIds: readonly number[]): Promise<ChannelRecord[]> {
    return this.records('c.realm_id = $1 AND c.id = ANY($2::int[])', [realmId, channelIds]);
  }

  async channel(realmId: number, channelId: number): Promise<ChannelRecord | null> {
    const [c] = await this.records('c.realm_id = $1 AND c.id = $2', [realmId, channelId]);
    return c ?? null;
  }

  async subscriptionsOf(userId: number): Promise<SubscriptionRecord[]> {
    const rows: SubscriptionRow[] = await this.em.query(`SELECT * FROM subscriptions WHERE user_id = $1 AND active`, [userId]);
    return rows.map(toSubscription);
  }

  async formerSubscriptionsOf(userId: number): Promise<SubscriptionRecord[]> {
    const rows: SubscriptionRow[] = await this.em.query(`SELECT * FROM subscriptions WHERE user_id = $1 AND NOT active`, [userId]);
    return rows.map(toSubscription);
  }

  async defaultChannelIds(realmId: number): Promise<number[]> {
    const rows: { id: number }[] = await this.em.query(
      `SELECT d.channel_id AS id FROM default_channels d JOIN channels c ON c.id = d.channel_id WHERE d.realm_id = $1 AND NOT c.is_archived ORDER BY 1`,
      [realmId],
    );
    return rows.map((r) => r.id);
  }

  async subscribers(channelIds: readonly number[]): Promise<Map<number, number[]>> {
    const rows: { channel_id: number; user_id: number }[] = await this.em.query(
      `SELECT s.channel_id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active
       WHERE s.channel_id = ANY($1::int[]) AND s.active ORDER BY s.user_id`,
      [channelIds],
    );
    const out = new Map(channelIds.map((id) => [id, [] as number[]]));
    for (const r of rows) out.get(r.channel_id)!.push(r.user_id);
    return out;
  }

  async folders(realmId: number): Promise<ChannelFolderRecord[]> {
    const rows: ChannelFolderRow[] = await this.em.query(`SELECT * FROM channel_folders WHERE realm_id = $1 ORDER BY "order", id`, [realmId]);
    return rows.map(toFolderRecord);
  }

  groupIdsOfUser(userId: number): Promise<Set<number>> {
    return groupIdsOfUser(this.em, userId);
  }

  async activeUsers(realmId: number): Promise<{ id: number; role: number }[]> {
    const rows: { id: number; role: number }[] = await this.em.query(`SELECT id, role FROM users WHERE realm_id = $1 AND is_active`, [realmId]);
    return rows;
  }

  async systemGroupNames(realmId: number): Promise<Map<number, string>> {
    const rows: { id: number; name: string }[] = await this.em.query(`SELECT id, name FROM user_groups WHERE realm_id = $1 AND is_system_group`, [
      realmId,
    ]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
