import type { RealmEmojiRecord } from './realm-emoji.ports.js';

/**
 * A custom emoji as Zulip shows it (get_all_custom_emoji_for_realm); URLs follow its local
 * upload backend: /user_avatars/<realm id>/emoji/images/<file>.
 */
export function presentRealmEmoji(e: RealmEmojiRecord) {
  const base = `/user_avatars/${e.realmId}/emoji/images`;
  return {
    id: String(e.id),
    name: e.name,
    source_url: `${base}/${e.fileName}`,
    deactivated: e.deactivated,
    author_id: e.authorId,
    still_url: e.isAnimated ? `${base}/still/${e.fileName.replace(/\.[^.]*$/, '')}.png` : null,
  };
}

/** `{"<id>": {...}}`, the shape of GET /realm/emoji's `emoji` and register's `realm_emoji`. */
export function presentRealmEmojiMap(list: readonly RealmEmojiRecord[]) {
  return Object.fromEntries(list.map((e) => [String(e.id), presentRealmEmoji(e)]));
}
