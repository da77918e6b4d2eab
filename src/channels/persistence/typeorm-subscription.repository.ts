import { pairKey, Subscription, type SubscriptionState } from '@app/domain/channels';
import type { EntityManager } from 'typeorm';
import { type SubscriptionRecord, SubscriptionRepository } from '../application/channel.ports.js';

/** A `subscriptions` row (SELECT *); null notification settings follow the user's defaults. */
export interface SubscriptionRow {
  id: number;
  realm_id: number;
  user_id: number;
  channel_id: number;
  active: boolean;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/** A `subscriptions` row → the subscription's state. */
export const toSubscription = (r: SubscriptionRow): SubscriptionRecord => ({
  userId: r.user_id,
  channelId: r.channel_id,
  active: r.active,
  color: r.color,
  isMuted: r.is_muted,
  pinToTop: r.pin_to_top,
  desktopNotifications: r.desktop_notifications,
  audibleNotifications: r.audible_notifications,
  pushNotifications: r.push_notifications,
  emailNotifications: r.email_notifications,
  wildcardMentionsNotify: r.wildcard_mentions_notify,
});

/** The columns `save` writes, with their Postgres array types, in the order of `toColumns`. */
const COLUMNS: readonly [string, string][] = [
  ['user_id', 'int'],
  ['channel_id', 'int'],
  ['active', 'bool'],
  ['color', 'text'],
  ['is_muted', 'bool'],
  ['pin_to_top', 'bool'],
  ['desktop_notifications', 'bool'],
  ['audible_notifications', 'bool'],
  ['push_notifications', 'bool'],
  ['email_notifications', 'bool'],
  ['wildcard_mentions_notify', 'bool'],
];

/** The subscriptions' states as one array per column (for unnest). */
function toColumns(states: readonly SubscriptionState[]): unknown[][] {
  const field = <K extends keyof SubscriptionState>(k: K) => states.map((s) => s[k]);
  return [
    field('userId'),
    field('channelId'),
    field('active'),
    field('color'),
    field('isMuted'),
    field('pinToTop'),
    field('desktopNotifications'),
    field('audibleNotifications'),
    field('pushNotifications'),
    field('emailNotifications'),
    field('wildcardMentionsNotify'),
  ];
}

const UPSERT = `INSERT INTO subscriptions (realm_id, ${COLUMNS.map(([c]) => c).join(', ')})
  SELECT $1, * FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')})
  ON CONFLICT (user_id, channel_id) DO UPDATE SET ${COLUMNS.slice(2)
    .map(([c]) => `${c} = EXCLUDED.${c}`)
    .join(', ')}`;

export class TypeOrmSubscriptionRepository extends SubscriptionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  private async rows(userIds: readonly number[], channelIds: readonly number[], lock: boolean): Promise<SubscriptionRecord[]> {
    if (userIds.length === 0 || channelIds.length === 0) return [];
    const rows: SubscriptionRow[] = await this.em.query(
      `SELECT * FROM subscriptions WHERE user_id = ANY($1::int[]) AND channel_id = ANY($2::int[])
       ${lock ? 'ORDER BY user_id, channel_id FOR UPDATE' : ''}`,
      [userIds, channelIds],
    );
    return rows.map(toSubscription);
  }

  async getForUpdate(userIds: readonly number[], channelIds: readonly number[]): Promise<Map<string, Subscription>> {
    const rows = await this.rows(userIds, channelIds, true);
    return new Map(rows.map((s) => [pairKey(s.userId, s.channelId), Subscription.restore(s)]));
  }

  async records(userIds: readonly number[], channelIds: readonly number[]): Promise<Map<string, SubscriptionRecord>> {
    const rows = await this.rows(userIds, channelIds, false);
    return new Map(rows.map((s) => [pairKey(s.userId, s.channelId), s]));
  }

  async usedColors(userIds: readonly number[]): Promise<Map<number, Set<string>>> {
    const rows: { user_id: number; color: string }[] = await this.em.query(`SELECT DISTINCT user_id, color FROM subscriptions WHERE user_id = ANY($1::int[])`, [
      userIds,
    ]);
    const out = new Map(userIds.map((u) => [u, new Set<string>()]));
    for (const r of rows) out.get(r.user_id)!.add(r.color);
    return out;
  }

  async save(realmId: number, subscriptions: readonly Subscription[]): Promise<void> {
    if (subscriptions.length === 0) return;
    await this.em.query(UPSERT, [realmId, ...toColumns(subscriptions.map((s) => s.snapshot()))]);
  }
}
