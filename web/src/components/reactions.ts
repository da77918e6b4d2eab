import type { Reaction } from '../api/types';

export interface ReactionGroup {
  name: string;
  code: string;
  type: string;
  count: number;
  mine: boolean;
  userIds: number[];
}

/** A message's reactions grouped by emoji, in the order they were first given. */
export function groupReactions(reactions: readonly Reaction[], myId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    let g = groups.get(key);
    if (!g) {
      g = { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, count: 0, mine: false, userIds: [] };
      groups.set(key, g);
    }
    g.count += 1;
    g.userIds.push(r.user_id);
    if (r.user_id === myId) g.mine = true;
  }
  return [...groups.values()];
}
