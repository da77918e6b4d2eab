import type { UserStatusView } from '@app/domain/users';

/** A status as clients see it: only its set parts (`{}` when nothing is set). */
export function presentUserStatus(v: UserStatusView) {
  return {
    ...(v.away ? { away: true } : {}),
    ...(v.statusText !== undefined ? { status_text: v.statusText } : {}),
    ...(v.emoji !== undefined
      ? { emoji_name: v.emoji.name, emoji_code: v.emoji.code, reaction_type: v.emoji.reactionType }
      : {}),
  };
}

/** POST /register's `user_status`: user ID (as a string) → status. */
export function presentUserStatusMap(statuses: ReadonlyMap<number, UserStatusView>) {
  return Object.fromEntries([...statuses].map(([id, v]) => [String(id), presentUserStatus(v)]));
}
