import {
  checkEmojiRequest,
  checkValidEmojiName,
  CustomEmojiCatalog,
  customEmojiNotFound,
  emojiDataForName,
  ReactionType,
} from './emoji.js';
import { UNICODE_EMOJI_COUNT, UNICODE_EMOJI_NAME_COUNT, unicodeEmojiCode, unicodeEmojiName } from './unicode-emoji.js';

const catalog = new CustomEmojiCatalog([
  { id: 7, name: 'green_tick', deactivated: false },
  { id: 8, name: 'old_logo', deactivated: true },
  { id: 9, name: 'car', deactivated: false }, // overrides the Unicode car for lookups by name
  { id: 10, name: 'parrot', deactivated: true },
  { id: 11, name: 'parrot', deactivated: false },
]);

describe('Unicode emoji table (Zulip naming)', () => {
  it.each([
    ['car', '1f697'],
    ['+1', '1f44d'],
    ['thumbs_up', '1f44d'],
    ['like', '1f44d'],
    ['computer', '1f4bb'],
    ['laptop', '1f4bb'],
    ['smile', '1f604'],
    ['flag_united_states', '1f1fa-1f1f8'],
    ['hash', '0023-20e3'],
    ['flag_são_tomé_and_príncipe', '1f1f8-1f1f9'],
    ['flag_sao_tome_and_principe', '1f1f8-1f1f9'],
  ])('name %s → %s', (name, code) => {
    expect(unicodeEmojiCode(name)).toBe(code);
  });

  it('maps codes to canonical names only', () => {
    expect(unicodeEmojiName('1f44d')).toBe('+1');
    expect(unicodeEmojiName('1f697')).toBe('car');
    expect(unicodeEmojiName('1f4bb')).toBe('computer');
  });

  it('knows nothing else: no made-up names, upper case, variation selectors or prototype keys', () => {
    for (const name of ['invalid', 'Car', 'car ', '', 'constructor', '__proto__', 'zulip']) {
      expect(unicodeEmojiCode(name)).toBeUndefined();
    }
    for (const code of ['1F697', '1f697-fe0f', 'xyz', '', 'toString']) expect(unicodeEmojiName(code)).toBeUndefined();
  });

  it('holds the whole table', () => {
    expect(UNICODE_EMOJI_COUNT).toBe(1883);
    expect(UNICODE_EMOJI_NAME_COUNT).toBe(3339);
  });
});

describe('emojiDataForName (get_emoji_data)', () => {
  it('prefers an active custom emoji, then zulip, then Unicode', () => {
    expect(emojiDataForName('green_tick', catalog)).toEqual({ code: '7', reactionType: 'realm_emoji' });
    expect(emojiDataForName('car', catalog)).toEqual({ code: '9', reactionType: 'realm_emoji' });
    expect(emojiDataForName('car', CustomEmojiCatalog.EMPTY)).toEqual({ code: '1f697', reactionType: 'unicode_emoji' });
    expect(emojiDataForName('zulip', catalog)).toEqual({ code: 'zulip', reactionType: 'svc_extra_emoji' });
    expect(emojiDataForName('thumbs_up', catalog)).toEqual({ code: '1f44d', reactionType: 'unicode_emoji' });
  });

  it('takes the active one of two custom emoji sharing a name', () => {
    expect(emojiDataForName('parrot', catalog)).toEqual({ code: '11', reactionType: 'realm_emoji' });
  });

  it('does not find deactivated custom emoji or unknown names', () => {
    expect(() => emojiDataForName('old_logo', catalog)).toThrow("Emoji 'old_logo' does not exist");
    expect(() => emojiDataForName('invalid', catalog)).toThrow("Emoji 'invalid' does not exist");
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
    expect(() => checkEmojiRequest(name, code, type, catalog)).not.toThrow();
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
    expect(() => checkEmojiRequest(name, code, type, catalog)).toThrow(msg);
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
