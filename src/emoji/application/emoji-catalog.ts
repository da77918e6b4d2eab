import type { UnicodeEmojiLookup } from '@app/domain/emoji';

/** The Unicode emoji the server knows, with their names and aliases (from an emoji data set). */
export abstract class EmojiCatalog {
  /** Zulip's name_to_codepoint / codepoint_to_name, as the emoji rules take them. */
  abstract unicode(): UnicodeEmojiLookup;
}
