import { createRequire } from 'node:module';
import { UnicodeEmojiTable, type UnicodeEmojiNameClaim } from '@app/domain/emoji';
import { EmojiCatalog } from '../application/emoji-catalog.js';

/*
 * The Unicode emoji table, built at run time from the `emojibase-data` npm package (English):
 * `en/data.json` lists the emoji, `en/shortcodes/cldr.json` and `en/shortcodes/iamcal.json`
 * give their names. Zulip names emoji in lower-case snake_case, mostly after their CLDR short
 * names, with the older Slack/iamcal names (`+1`, `car`, `smile`) as aliases; docs/design.md's
 * design notes list what still differs.
 */

/** One emoji of emojibase's data.json (the fields used here). */
export interface EmojibaseEmoji {
  /** Upper-case hex code points joined by `-`, `FE0F` kept where the fully-qualified form has it. */
  hexcode: string;
  /** The CLDR short name (`thumbs up`, `flag: São Tomé & Príncipe`). */
  label: string;
  /** Emoji group; absent for the regional indicator letters. */
  group?: number;
  /** The Emoji version that added it (0.6, 15.1, 16, ...). */
  version: number;
}

/** Shortcodes by hexcode: one name or several, the first the preferred one. */
export type EmojibaseShortcodes = Record<string, string | string[]>;

/**
 * Emoji newer than this are left out: Zulip's emoji come from emoji-datasource 16 (Emoji 16.0)
 * and its clients' image sheets show no later emoji.
 */
export const MAX_EMOJI_VERSION = 16;
/** emojibase's "component" group: skin tone and hair modifiers, not emoji by themselves. */
const COMPONENT_GROUP = 2;

/** `1F3F3-FE0F-200D-1F308` → `1f3f3-200d-1f308`: Zulip's code form. */
export function emojiCodeOfHexcode(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split('-')
    .filter((p) => p !== 'fe0f')
    .join('-');
}

/**
 * A CLDR short name in Zulip's style: lower case, `&` spelled `and`, punctuation dropped, words
 * joined by `_`, accents kept (`flag: São Tomé & Príncipe` → `flag_são_tomé_and_príncipe`).
 * Undefined when symbols remain (`keycap: #`): such emoji keep their CLDR shortcode.
 */
export function cldrStyleName(label: string): string | undefined {
  const name = label
    .toLowerCase()
    .replaceAll('&', ' and ')
    .replace(/[’'‘“”".,!()]/gu, '')
    .replace(/[\s:-]+/gu, '_')
    .replace(/^_+|_+$/gu, '');
  return /^[\p{L}\p{N}_]+$/u.test(name) ? name : undefined;
}

/** The name without accents (`flag_são_tomé_and_príncipe` → `flag_sao_tome_and_principe`). */
export function withoutAccents(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '');
}

const names = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The name claims, most wanted first (the first claim of a name wins; an emoji's first kept
 * name is its canonical one): the CLDR-style name of every emoji, then emojibase's CLDR
 * shortcodes, then the accent-free CLDR-style names, then the iamcal (Slack) shortcodes.
 */
export function* emojibaseNameClaims(
  data: readonly EmojibaseEmoji[],
  cldr: EmojibaseShortcodes,
  iamcal: EmojibaseShortcodes,
): Generator<UnicodeEmojiNameClaim> {
  const emoji = data.filter((e) => e.group !== undefined && e.group !== COMPONENT_GROUP && e.version <= MAX_EMOJI_VERSION);
  const styled = new Map(emoji.map((e) => [e.hexcode, cldrStyleName(e.label)]));
  for (const e of emoji) {
    const name = styled.get(e.hexcode);
    if (name !== undefined) yield { name, code: emojiCodeOfHexcode(e.hexcode) };
  }
  for (const e of emoji) for (const name of names(cldr[e.hexcode])) yield { name, code: emojiCodeOfHexcode(e.hexcode) };
  for (const e of emoji) {
    const name = styled.get(e.hexcode);
    if (name !== undefined) yield { name: withoutAccents(name), code: emojiCodeOfHexcode(e.hexcode) };
  }
  for (const e of emoji) for (const name of names(iamcal[e.hexcode])) yield { name, code: emojiCodeOfHexcode(e.hexcode) };
}

let table: UnicodeEmojiTable | undefined;

/** Reads emojibase-data once per process, on first use (about 1.5 MB of JSON). */
export function loadEmojibaseTable(): UnicodeEmojiTable {
  if (table === undefined) {
    const require = createRequire(import.meta.url);
    table = new UnicodeEmojiTable(
      emojibaseNameClaims(
        require('emojibase-data/en/data.json') as EmojibaseEmoji[],
        require('emojibase-data/en/shortcodes/cldr.json') as EmojibaseShortcodes,
        require('emojibase-data/en/shortcodes/iamcal.json') as EmojibaseShortcodes,
      ),
    );
  }
  return table;
}

/** The EmojiCatalog port on emojibase-data. */
export class EmojibaseEmojiCatalog extends EmojiCatalog {
  unicode(): UnicodeEmojiTable {
    return loadEmojibaseTable();
  }
}
