import type { Message, PresenceInfo, User } from '../api/types';
import type { NarrowLookup } from '../narrow/narrow';
import type { AppState } from './store';
import { dmKeyIds } from './unread';

/** Lookups for narrows (hashes, titles, the search box) from the state. */
export function makeLookup(s: AppState): NarrowLookup {
  return {
    channelName: (id) => s.streams.get(id)?.name ?? s.subscriptions.get(id)?.name,
    channelId: (name) => {
      const lower = name.trim().toLowerCase();
      for (const sub of s.subscriptions.values()) if (sub.name.toLowerCase() === lower) return sub.stream_id;
      for (const st of s.streams.values()) if (st.name.toLowerCase() === lower) return st.stream_id;
      return undefined;
    },
    userName: (id) => s.users.get(id)?.full_name,
    userEmail: (id) => s.users.get(id)?.email,
    userIdByEmail: (email) => {
      const lower = email.trim().toLowerCase();
      for (const u of s.users.values()) if (u.email.toLowerCase() === lower) return u.user_id;
      return undefined;
    },
    userIdByName: (name) => {
      const lower = name.trim().toLowerCase();
      const found = [...s.users.values()].filter((u) => u.full_name.toLowerCase() === lower);
      return found.length === 1 ? found[0].user_id : undefined;
    },
  };
}

export function userName(s: AppState, id: number): string {
  return s.users.get(id)?.full_name ?? `Unknown user ${id}`;
}

/** The names of a DM conversation's people ("Pat Lee, Sam Rivera"). */
export function dmNames(s: AppState, key: string): string {
  return dmKeyIds(key)
    .map((id) => userName(s, id))
    .join(', ');
}

export function channelName(s: AppState, id: number | undefined): string {
  if (id === undefined) return '';
  return s.streams.get(id)?.name ?? s.subscriptions.get(id)?.name ?? `channel ${id}`;
}

export function messageChannelName(s: AppState, m: Message): string {
  if (m.stream_id !== undefined && (s.streams.has(m.stream_id) || s.subscriptions.has(m.stream_id))) return channelName(s, m.stream_id);
  return typeof m.display_recipient === 'string' ? m.display_recipient : '';
}

export type PresenceStatus = 'active' | 'idle' | 'offline';

/** Zulip's presence rule: active within 140 s, idle within 140 s of an idle report, else offline. */
export function presenceStatus(p: PresenceInfo | undefined, nowSeconds: number): PresenceStatus {
  if (!p) return 'offline';
  if (nowSeconds - p.active_timestamp < 140) return 'active';
  if (nowSeconds - p.idle_timestamp < 140) return 'idle';
  return 'offline';
}

/** Active people, by name (for completion and the people list). */
export function activeUsers(users: ReadonlyMap<number, User>): User[] {
  return [...users.values()].filter((u) => u.is_active !== false).sort((a, b) => a.full_name.localeCompare(b.full_name));
}

/** People matching a query by name or email, best first. */
export function matchUsers(users: readonly User[], query: string, limit = 8): User[] {
  const q = query.trim().toLowerCase();
  if (q === '') return users.slice(0, limit);
  const rank = (u: User): number => {
    const name = u.full_name.toLowerCase();
    const email = u.email.toLowerCase();
    if (name.startsWith(q) || email.startsWith(q)) return 0;
    if (name.split(/\s+/).some((w) => w.startsWith(q))) return 1;
    if (name.includes(q) || email.includes(q)) return 2;
    return 9;
  };
  return users
    .map((u) => ({ u, r: rank(u) }))
    .filter((x) => x.r < 9)
    .sort((a, b) => a.r - b.r || a.u.full_name.localeCompare(b.u.full_name))
    .slice(0, limit)
    .map((x) => x.u);
}

export const isAdmin = (s: AppState): boolean => s.me.role <= 200;
