import {
  checkEmojiRequest,
  checkValidEmojiName,
  CustomEmojiCatalog,
  customEmojiNotFound,
  emojiDataForName,
  normaliseReactionType,
  ReactionType,
} from './emoji.js';
import { UnicodeEmojiTable } from './unicode-emoji.js';

const catalog = new CustomEmojiCatalog([
  { id: 7, name: 'green_tick', deactivated: false },
  { id: 8, name: 'old_logo', deactivated: true },
  { id: 9, name: 'car', deactivated: false }, // overrides the Unicode car for lookups by name
  { id: 10, name: 'parrot', deactivated: true },
  { id: 11, name: 'parrot', deactivated: false },
]);

// A few Unicode emoji, named as the emojibase adapter names them (CLDR names first).
const unicode = new UnicodeEmojiTable([
  { name: 'thumbs_up', code: '1f44d' },
  { name: 'automobile', code: '1f697' },
  { name: 'laptop', code: '1f4bb' },
  { name: '+1', code: '1f44d' },
  { name: 'car', code: '1f697' },
  { name: 'computer', code: '1f4bb' },
]);

describe('UnicodeEmojiTable', () => {
  it('maps every name to its emoji and each emoji to its first name', () => {
    expect(unicode.codeOf('car')).toBe('1f697');
    expect(unicode.codeOf('+1')).toBe('1f44d');
    expect(unicode.codeOf('thumbs_up')).toBe('1f44d');
    expect(unicode.nameOf('1f44d')).toBe('thumbs_up');
    expect(unicode.nameOf('1f697')).toBe('automobile');
    expect(unicode.emojiCount).toBe(3);
    expect(unicode.nameCount).toBe(6);
    expect([...unicode.canonicalNames()]).toEqual([
      ['1f44d', 'thumbs_up'],
      ['1f697', 'automobile'],
      ['1f4bb', 'laptop'],
    ]);
  });

  it('gives a name to the emoji that claimed it first; an emoji keeps its first name that no other took', () => {
    const t = new UnicodeEmojiTable([
      { name: 'sunset', code: '1f307' },
      { name: 'sunset', code: '1f306' },
      { name: 'city_sunset', code: '1f306' },
      { name: '', code: '1f600' },
    ]);
    expect(t.codeOf('sunset')).toBe('1f307');
    expect(t.nameOf('1f306')).toBe('city_sunset');
    expect(t.nameOf('1f600')).toBeUndefined();
    expect(t.codeOf('')).toBeUndefined();
  });

  it('knows nothing else: no made-up names, upper case, variation selectors or prototype keys', () => {
    for (const name of ['invalid', 'Car', 'car ', '', 'constructor', '__proto__', 'zulip']) {
      expect(unicode.codeOf(name)).toBeUndefined();
    }
    for (const code of ['1F697', '1f697-fe0f', 'xyz', '', 'toString']) expect(unicode.nameOf(code)).toBeUndefined();
    expect(UnicodeEmojiTable.EMPTY.codeOf('car')).toBeUndefined();
  });
});

describe('emojiDataForName (get_emoji_data)', () => {
  it('prefers an active custom emoji, then zulip, then Unicode', () => {
    expect(emojiDataForName('green_tick', catalog, unicode)).toEqual({ code: '7', reactionType: 'realm_emoji' });
    expect(emojiDataForName('car', catalog, unicode)).toEqual({ code: '9', reactionType: 'realm_emoji' });
    expect(emojiDataForName('car', CustomEmojiCatalog.EMPTY, unicode)).toEqual({ code: '1f697', reactionType: 'unicode_emoji' });
    expect(emojiDataForName('zulip', catalog, unicode)).toEqual({ code: 'zulip', reactionType: 'svc_extra_emoji' });
    expect(emojiDataForName('thumbs_up', catalog, unicode)).toEqual({ code: '1f44d', reactionType: 'unicode_emoji' });
  });

  it('takes the active one of two custom emoji sharing a name', () => {
    expect(emojiDataForName('parrot', catalog, unicode)).toEqual({ code: '11', reactionType: 'realm_emoji' });
  });

  it('does not find deactivated custom emoji or unknown names', () => {
    expect(() => emojiDataForName('old_logo', catalog, unicode)).toThrow("Emoji 'old_logo' does not exist");
    expect(() => emojiDataForName('invalid', catalog, unicode)).toThrow("Emoji 'invalid' does not exist");
  });
});

describe('checkEmojiRequest', () => {
  const ok: [string, string, string][] = [
    ['car', '1f697', ReactionType.UNICODE],
    ['thumbs_up', '1f44d', ReactionType.UNICODE],
    ['+1', '1f44d', ReactionType.UNICODE],
    ['car', '1f697', ReactionType.UNICODE], // a custom "car" does not hide the Unicode one
    ['zulip', 'zulip', ReactionType.EXTRA],
    ['green_tick', '7', ReactionType.REALM],
    ['parrot', '11', ReactionType.REALM],
  ];
  it.each(ok)('accepts %s / %s / %s', (name, code, type) => {
    expect(() => checkEmojiRequest(name, code, type, catalog, unicode)).not.toThrow();
  });

  it('checks Unicode emoji against the table it is given', () => {
    expect(() => checkEmojiRequest('car', '1f697', 'unicode_emoji', catalog, UnicodeEmojiTable.EMPTY)).toThrow(
      'Invalid emoji code.',
    );
    expect(() => emojiDataForName('car', CustomEmojiCatalog.EMPTY, UnicodeEmojiTable.EMPTY)).toThrow(
      "Emoji 'car' does not exist",
    );
  });

  it.each([
    ['car', '1f4bb', 'unicode_emoji', 'Invalid emoji name.'],
    ['invalid', '1f697', 'unicode_emoji', 'Invalid emoji name.'],
    ['car', '1f6971', 'unicode_emoji', 'Invalid emoji code.'],
    ['car', '1F697', 'unicode_emoji', 'Invalid emoji code.'],
    ['car', '', 'unicode_emoji', 'Invalid emoji code.'],
    ['zulip', 'zulip', 'unicode_emoji', 'Invalid emoji code.'],
    ['zulip', 'svc', 'svc_extra_emoji', 'Invalid emoji code.'],
    ['car', 'zulip', 'svc_extra_emoji', 'Invalid emoji name.'],
    ['zulip', 'zulip', 'zulip_extra_emoji', 'Invalid emoji type.'],
    ['car', '1f697', '', 'Invalid emoji type.'],
    ['car', '1f697', 'realm_emoji', 'Invalid custom emoji.'],
    ['green_tick', '07', 'realm_emoji', 'Invalid custom emoji.'],
    ['green_tick', '99', 'realm_emoji', 'Invalid custom emoji.'],
    ['car', '7', 'realm_emoji', 'Invalid custom emoji name.'],
    ['old_logo', '8', 'realm_emoji', 'This custom emoji has been deactivated.'],
    ['parrot', '10', 'realm_emoji', 'This custom emoji has been deactivated.'],
    // the name is compared before the deactivation
    ['other', '8', 'realm_emoji', 'Invalid custom emoji name.'],
  ])('%s / %s / %s → %s', (name, code, type, msg) => {
    expect(() => checkEmojiRequest(name, code, type, catalog, unicode)).toThrow(msg);
  });
});

describe('checkValidEmojiName', () => {
  it.each(['a', 'green_tick', 'x-1', '42', 'a_b-c9'])('accepts %s', (name) => {
    expect(() => checkValidEmojiName(name)).not.toThrow();
  });
  it.each([
    ['', 'Emoji name is missing'],
    ['tick_', 'Emoji names must end with either a letter or digit.'],
    ['tick-', 'Emoji names must end with either a letter or digit.'],
    ['Tick', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['a.b', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['héllo', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
  ])('%j → %s', (name, msg) => {
    expect(() => checkValidEmojiName(name)).toThrow(msg);
  });
});

describe('customEmojiNotFound', () => {
  it('is a 404 with Zulip’s text', () => {
    expect(customEmojiNotFound('x')).toMatchObject({ msg: "Emoji 'x' does not exist", code: 'BAD_REQUEST', kind: 'not_found' });
  });
});

describe('normaliseReactionType', () => {
  it('reads Zulip’s zulip_extra_emoji as svc_extra_emoji and leaves the others', () => {
    expect(normaliseReactionType('zulip_extra_emoji')).toBe('svc_extra_emoji');
    expect(normaliseReactionType('svc_extra_emoji')).toBe('svc_extra_emoji');
    expect(normaliseReactionType('unicode_emoji')).toBe('unicode_emoji');
    expect(normaliseReactionType('nonsense')).toBe('nonsense');
    expect(normaliseReactionType(undefined)).toBeUndefined();
  });
});
