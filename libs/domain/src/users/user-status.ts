import { checkEmojiRequest, type CustomEmojiCatalog, emojiDataForName, ReactionType } from '../emoji/emoji.js';
import type { UnicodeEmojiLookup } from '../emoji/unicode-emoji.js';
import { badRequest } from '../shared/domain-error.js';
import { codePointLength, strip } from '../shared/text.js';

/*
 * User status (Zulip's zerver/views/presence.py update_user_status_backend,
 * zerver/lib/user_status.py): a short text, an emoji, and the deprecated `away` flag, which is
 * the inverse of the user's presence_enabled setting.
 */

export const STATUS_TEXT_MAX_LENGTH = 60;

/** `status_text` as Zulip's parameter parser takes it: stripped first, then at most 60 code points. */
export function parseStatusText(raw: string, param = 'status_text'): string {
  const text = strip(raw);
  if (codePointLength(text) > STATUS_TEXT_MAX_LENGTH) {
    throw badRequest(`${param} is too long (limit: ${STATUS_TEXT_MAX_LENGTH} characters)`);
  }
  return text;
}

/** What a client sent; undefined = not sent. `statusText` is already parsed. */
export interface StatusUpdateRequest {
  away?: boolean;
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

export interface StatusEmoji {
  name: string;
  code: string;
  reactionType: string;
}

/** The change to store: only what is set here changes. */
export interface StatusChange {
  away?: boolean;
  statusText?: string;
  emoji?: StatusEmoji;
}

/** No emoji: what an empty `emoji_name` stores. */
export const NO_STATUS_EMOJI: StatusEmoji = { name: '', code: '', reactionType: ReactionType.UNICODE };

/**
 * Decides what a status update changes, with Zulip's checks in Zulip's order: nothing sent;
 * an emoji code or type without its name; a name that names no emoji (when the code or type is
 * left out, they are looked up from the name); then the emoji consistency check.
 */
export function planStatusChange(
  req: StatusUpdateRequest,
  catalog: CustomEmojiCatalog,
  unicode: UnicodeEmojiLookup,
): StatusChange {
  if (req.away === undefined && req.statusText === undefined && req.emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  const change: StatusChange = {};
  if (req.away !== undefined) change.away = req.away;
  if (req.statusText !== undefined) change.statusText = req.statusText;
  if (req.emojiName === '') {
    change.emoji = NO_STATUS_EMOJI;
  } else if (req.emojiName !== undefined) {
    let code = req.emojiCode;
    let type = req.reactionType;
    if (code === undefined || type === undefined) {
      const data = emojiDataForName(req.emojiName, catalog, unicode);
      code ??= data.code;
      type ??= data.reactionType;
    }
    checkEmojiRequest(req.emojiName, code, type, catalog, unicode);
    change.emoji = { name: req.emojiName, code, reactionType: type };
  } else if (req.emojiCode || req.reactionType) {
    // Empty strings count as not sent here, as in Zulip (Python truthiness).
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  return change;
}

/** A stored status with the user's presence setting. */
export interface UserStatusState {
  userId: number;
  presenceEnabled: boolean;
  statusText: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

/** What clients see of a status: only the set parts (Zulip's format_user_status). */
export interface UserStatusView {
  away?: true;
  statusText?: string;
  emoji?: StatusEmoji;
}

export function viewOfStatus(s: UserStatusState): UserStatusView {
  const view: UserStatusView = {};
  if (!s.presenceEnabled) view.away = true;
  if (s.statusText !== '') view.statusText = s.statusText;
  if (s.emojiName !== '') view.emoji = { name: s.emojiName, code: s.emojiCode, reactionType: s.reactionType };
  return view;
}

/**
 * Whether POST /register lists the user under `user_status`: Zulip leaves out statuses with
 * presence on, no text and no emoji (get_all_users_status_dict).
 */
export function isListedStatus(s: UserStatusState): boolean {
  return !(
    s.presenceEnabled &&
    s.statusText === '' &&
    s.emojiName === '' &&
    s.emojiCode === '' &&
    s.reactionType === ReactionType.UNICODE
  );
}
