import { badRequest, DomainError } from '../shared/domain-error.js';
import type { UnicodeEmojiLookup } from './unicode-emoji.js';

/** Where an emoji code lives (Zulip's `reaction_type`; its `zulip_extra_emoji` is `svc_extra_emoji` here). */
export const ReactionType = {
  UNICODE: 'unicode_emoji',
  REALM: 'realm_emoji',
  EXTRA: 'svc_extra_emoji',
} as const;
export type ReactionType = (typeof ReactionType)[keyof typeof ReactionType];

/** Zulip's own name of `svc_extra_emoji`: accepted on input, so Zulip's clients can send it. */
export const ZULIP_EXTRA_EMOJI = 'zulip_extra_emoji';

/** A `reaction_type` as a request wrote it, with Zulip's name of the extra type read as ours. */
export function normaliseReactionType(type: string): string;
export function normaliseReactionType(type: string | undefined): string | undefined;
export function normaliseReactionType(type: string | undefined): string | undefined {
  return type === ZULIP_EXTRA_EMOJI ? ReactionType.EXTRA : type;
}

/** The emoji shipped with the server besides Unicode's; its name is also its code. */
export const EXTRA_EMOJI_NAME = 'zulip';

/** A custom emoji of the organization as the emoji rules see it. */
export interface CustomEmoji {
  id: number;
  name: string;
  deactivated: boolean;
}

/**
 * The organization's custom emoji whose upload has finished (Zulip's
 * get_all_custom_emoji_for_realm), deactivated ones included.
 */
export class CustomEmojiCatalog {
  private readonly byId = new Map<string, CustomEmoji>();
  private readonly activeByName = new Map<string, CustomEmoji>();

  constructor(emoji: readonly CustomEmoji[]) {
    for (const e of emoji) {
      this.byId.set(String(e.id), e);
      if (!e.deactivated) this.activeByName.set(e.name, e);
    }
  }

  static readonly EMPTY = new CustomEmojiCatalog([]);

  /** By code: the ID exactly as written in decimal (`"7"`, not `"07"`). */
  withCode(code: string): CustomEmoji | undefined {
    return this.byId.get(code);
  }

  /** The active custom emoji of that name, if any. */
  activeNamed(name: string): CustomEmoji | undefined {
    return this.activeByName.get(name);
  }
}

export interface EmojiData {
  code: string;
  reactionType: ReactionType;
}

export const emojiDoesNotExist = (name: string): DomainError => badRequest(`Emoji '${name}' does not exist`);

/**
 * The emoji a bare name means (Zulip's get_emoji_data): an active custom emoji of that name
 * first, then the extra emoji, then a Unicode emoji name or alias.
 */
export function emojiDataForName(name: string, catalog: CustomEmojiCatalog, unicode: UnicodeEmojiLookup): EmojiData {
  const custom = catalog.activeNamed(name);
  if (custom !== undefined) return { code: String(custom.id), reactionType: ReactionType.REALM };
  if (name === EXTRA_EMOJI_NAME) return { code: name, reactionType: ReactionType.EXTRA };
  const code = unicode.codeOf(name);
  if (code !== undefined) return { code, reactionType: ReactionType.UNICODE };
  throw emojiDoesNotExist(name);
}

/**
 * Whether a (name, code, type) triple names a usable emoji (Zulip's check_emoji_request);
 * the first failure wins.
 */
export function checkEmojiRequest(
  name: string,
  code: string,
  type: string,
  catalog: CustomEmojiCatalog,
  unicode: UnicodeEmojiLookup,
): void {
  if (type === ReactionType.REALM) {
    const custom = catalog.withCode(code);
    if (custom === undefined) throw badRequest('Invalid custom emoji.');
    if (custom.name !== name) throw badRequest('Invalid custom emoji name.');
    if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
  } else if (type === ReactionType.EXTRA) {
    if (code !== EXTRA_EMOJI_NAME) throw badRequest('Invalid emoji code.');
    if (name !== code) throw badRequest('Invalid emoji name.');
  } else if (type === ReactionType.UNICODE) {
    if (unicode.nameOf(code) === undefined) throw badRequest('Invalid emoji code.');
    if (unicode.codeOf(name) !== code) throw badRequest('Invalid emoji name.');
  } else {
    throw badRequest('Invalid emoji type.');
  }
}

/** A name for a new custom emoji (Zulip's check_valid_emoji_name, after its strip and space → `_`). */
export function checkValidEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (/^[0-9a-z\-_]+(?<![-_])$/.test(name)) return;
  if (/^[0-9a-z\-_]+$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
  throw badRequest(
    'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
  );
}

export const customEmojiAlreadyExists = (): DomainError => badRequest('A custom emoji with this name already exists.');

/** Deleting a custom emoji that is not active (Zulip's ResourceNotFoundError: HTTP 404). */
export const customEmojiNotFound = (name: string): DomainError =>
  new DomainError(`Emoji '${name}' does not exist`, 'BAD_REQUEST', 'not_found');
