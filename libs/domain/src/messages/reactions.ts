import { checkEmojiRequest, type CustomEmojiCatalog, emojiDataForName, ReactionType } from '../emoji/emoji.js';
import type { UnicodeEmojiLookup } from '../emoji/unicode-emoji.js';
import { AggregateRoot } from '../shared/aggregate-root.js';
import { badRequest, DomainError } from '../shared/domain-error.js';
import { type AutomaticVisibilitySettings, VisibilityPolicy } from './message-send.policy.js';

/*
 * Emoji reactions (Zulip's zerver/views/reactions.py and zerver/actions/reactions.py). A
 * message's reactions are their own small aggregate, loaded only by the reaction use cases, so
 * sending, editing and moving never pay for them.
 */

/** One user's reaction to a message, as stored (Zulip's Reaction: unique per user, message, type and code). */
export interface Reaction {
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

/** POST /messages/{id}/reactions: `emoji_name`, and optionally the code and type (undefined = not sent). */
export interface ReactionRequest {
  emojiName: string;
  emojiCode?: string;
  reactionType?: string;
}

/** DELETE /messages/{id}/reactions: a name or a code; the type defaults to `unicode_emoji`. */
export interface ReactionRemoval {
  emojiName?: string;
  emojiCode?: string;
  reactionType: string;
}

/** The emoji a request may name: the organization's custom emoji and the Unicode table. */
export interface EmojiLookups {
  custom: CustomEmojiCatalog;
  unicode: UnicodeEmojiLookup;
}

export type ReactionEvent =
  | { type: 'reaction_added'; messageId: number; reaction: Reaction }
  | { type: 'reaction_removed'; messageId: number; reaction: Reaction };

export const reactionAlreadyExists = (): DomainError => new DomainError('Reaction already exists.', 'REACTION_ALREADY_EXISTS');
export const reactionDoesNotExist = (): DomainError => new DomainError("Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
export const reactionEmojiMissing = (): DomainError =>
  badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');

/** `reaction_type` of DELETE when the request leaves it out. */
export const DEFAULT_REMOVAL_TYPE = ReactionType.UNICODE;

/** The reactions of one message, oldest first; the rules of adding and removing one. */
export class MessageReactions extends AggregateRoot<ReactionEvent> {
  private constructor(
    readonly messageId: number,
    private readonly reactions: Reaction[],
  ) {
    super();
  }

  /** The message's stored reactions, oldest first. */
  static restore(messageId: number, reactions: readonly Reaction[]): MessageReactions {
    return new MessageReactions(messageId, reactions.map((r) => ({ ...r })));
  }

  list(): readonly Readonly<Reaction>[] {
    return this.reactions;
  }

  /**
   * Zulip's check_add_reaction, after the message access check: a missing code or type comes
   * from the name (which must then name an emoji); the user may react with an emoji only once;
   * reacting with an emoji someone already used is a vote for that reaction (its name wins and
   * the emoji is not checked again, so a deactivated custom emoji can still get votes); else the
   * name, code and type must name a usable emoji.
   */
  add(userId: number, req: ReactionRequest, emoji: EmojiLookups): Reaction {
    let code = req.emojiCode;
    let type = req.reactionType;
    if (code === undefined || type === undefined) {
      const data = emojiDataForName(req.emojiName, emoji.custom, emoji.unicode);
      code ??= data.code;
      type ??= data.reactionType;
    }
    if (this.find(userId, code, type) !== undefined) throw reactionAlreadyExists();
    const voted = this.reactions.find((r) => r.emojiCode === code && r.reactionType === type);
    if (voted === undefined) checkEmojiRequest(req.emojiName, code, type, emoji.custom, emoji.unicode);
    const reaction: Reaction = { userId, emojiName: voted?.emojiName ?? req.emojiName, emojiCode: code, reactionType: type };
    this.reactions.push(reaction);
    this.record({ type: 'reaction_added', messageId: this.messageId, reaction });
    return reaction;
  }

  /**
   * Zulip's remove_reaction: by code, or by a name looked up as today's emoji (the type is not
   * looked up: it stays what the request says). The emoji is not checked otherwise, so a
   * reaction with a since-deactivated or renamed emoji can still be removed.
   */
  remove(userId: number, req: ReactionRemoval, emoji: EmojiLookups): Reaction {
    let code = req.emojiCode;
    if (code === undefined) {
      if (req.emojiName === undefined) throw reactionEmojiMissing();
      code = emojiDataForName(req.emojiName, emoji.custom, emoji.unicode).code;
    }
    const existing = this.find(userId, code, req.reactionType);
    if (existing === undefined) throw reactionDoesNotExist();
    this.reactions.splice(this.reactions.indexOf(existing), 1);
    this.record({ type: 'reaction_removed', messageId: this.messageId, reaction: existing });
    return existing;
  }

  /** Whether removing needs the emoji tables (only to look up a code from a name). */
  static removalNeedsLookup(req: ReactionRemoval): boolean {
    return req.emojiCode === undefined && req.emojiName !== undefined;
  }

  private find(userId: number, code: string, type: string): Reaction | undefined {
    return this.reactions.find((r) => r.userId === userId && r.emojiCode === code && r.reactionType === type);
  }
}

/** Whether the automatic policies could change a reacting user's topic (Zulip's set_visibility_policy_possible, in-realm). */
export const reactionMayChangeVisibility = (m: { channelId: number | null }, reactor: { isBot: boolean }): boolean =>
  m.channelId !== null && !reactor.isBot;

/**
 * The policy reacting asks for (Zulip's visibility_policy_for_participation): FOLLOWED when the
 * user follows topics they participate in, else UNMUTED in a muted channel when they unmute on
 * participation; null otherwise. Code 1 is "on participation".
 */
export function participationVisibility(s: AutomaticVisibilitySettings, channelMuted: boolean): number | null {
  if (s.followPolicy === 1) return VisibilityPolicy.FOLLOWED;
  if (channelMuted && s.unmuteInMutedChannelsPolicy === 1) return VisibilityPolicy.UNMUTED;
  return null;
}

/**
 * Zulip's should_change_visibility_policy: the automatic policies only make a topic more
 * visible. `current` is INHERIT when the user has no policy for the topic.
 */
export function shouldChangeVisibility(next: number, current: number): boolean {
  if (current === VisibilityPolicy.INHERIT) return true;
  return next !== current && current !== VisibilityPolicy.FOLLOWED;
}
