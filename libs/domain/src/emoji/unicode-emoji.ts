/*
 * Unicode emoji as the emoji rules see them: Zulip's `name_to_codepoint` (names and aliases)
 * and `codepoint_to_name` (one canonical name per emoji). Codes are lower-case hex code points
 * joined by `-`, without `fe0f` variation selectors (`1f44d`, `1f1fa-1f1f8`, `0023-20e3`).
 * The names come from an emoji data set that an adapter loads; the rules only look them up.
 */
export interface UnicodeEmojiLookup {
  /** The code a name or alias means (`car` → `1f697`), if any. */
  codeOf(name: string): string | undefined;
  /** The canonical name of a code, if the code is a known emoji. */
  nameOf(code: string): string | undefined;
}

/** One name claimed for one emoji. */
export interface UnicodeEmojiNameClaim {
  name: string;
  code: string;
}

/**
 * A lookup built from name claims in priority order: a name means the emoji that claimed it
 * first, and an emoji's canonical name is the first name it kept. Emoji that kept no name are
 * unknown (a code without a name cannot be checked against one).
 */
export class UnicodeEmojiTable implements UnicodeEmojiLookup {
  private readonly codeByName = new Map<string, string>();
  private readonly nameByCode = new Map<string, string>();

  constructor(claims: Iterable<UnicodeEmojiNameClaim>) {
    for (const { name, code } of claims) {
      if (name === '' || this.codeByName.has(name)) continue;
      this.codeByName.set(name, code);
      if (!this.nameByCode.has(code)) this.nameByCode.set(code, name);
    }
  }

  static readonly EMPTY = new UnicodeEmojiTable([]);

  codeOf(name: string): string | undefined {
    return this.codeByName.get(name);
  }

  nameOf(code: string): string | undefined {
    return this.nameByCode.get(code);
  }

  /** How many emoji have a name. */
  get emojiCount(): number {
    return this.nameByCode.size;
  }

  /** How many names (canonical ones and aliases) mean an emoji. */
  get nameCount(): number {
    return this.codeByName.size;
  }

  /** Every known emoji's code with its canonical name, in the order the emoji were first named. */
  canonicalNames(): IterableIterator<[code: string, name: string]> {
    return this.nameByCode.entries();
  }
}
