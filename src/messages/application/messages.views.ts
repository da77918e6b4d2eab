import type { Reaction, Submessage } from '@app/domain/messages';

/**
 * A reaction as a message object shows it (Zulip's EmojiReaction): since Zulip 10.0 (feature
 * level 328) without the deprecated `user` object, which only the `reaction` event keeps.
 */
export function presentReaction(r: Readonly<Reaction>) {
  return { emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId };
}

/** A submessage as message objects and `message` events show it (Zulip's SubMessage.get_raw_db_rows). */
export function presentSubmessage(s: Readonly<Submessage>) {
  return { id: s.id, message_id: s.messageId, sender_id: s.senderId, msg_type: s.msgType, content: s.content };
}
