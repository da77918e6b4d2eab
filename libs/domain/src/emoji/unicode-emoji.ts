import { UNICODE_EMOJI_ROWS } from './unicode-emoji.data.js';

/*
 * Zulip's Unicode emoji table (zerver/lib/emoji.py's `name_to_codepoint`, aliases included,
 * and `codepoint_to_name`, canonical names only). Codes are lower-case hex code points joined
 * by `-`, without `fe0f` variation selectors (`1f44d`, `1f1fa-1f1f8`).
 */
const nameToCodepoint = new Map<string, string>();
const codepointToName = new Map<string, string>();
for (const row of UNICODE_EMOJI_ROWS) {
  const [code, ...names] = row.split(' ');
  codepointToName.set(code, names[0]);
  for (const name of names) nameToCodepoint.set(name, code);
}

/** The code point string of a Unicode emoji name or alias (`car` → `1f697`, `thumbs_up` → `1f44d`). */
export function unicodeEmojiCode(name: string): string | undefined {
  return nameToCodepoint.get(name);
}

/** The canonical name of a Unicode emoji code point string (`1f44d` → `+1`). */
export function unicodeEmojiName(code: string): string | undefined {
  return codepointToName.get(code);
}

export const UNICODE_EMOJI_COUNT = codepointToName.size;
export const UNICODE_EMOJI_NAME_COUNT = nameToCodepoint.size;
