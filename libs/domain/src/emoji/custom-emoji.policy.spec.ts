import {
  assertCanRemoveCustomEmoji,
  assertCanUploadEmoji,
  customEmojiNameOf,
  type EmojiUploadFacts,
  emojiImageExtension,
  MAX_EMOJI_FILE_SIZE_MIB,
} from './custom-emoji.policy.js';

const ok: EmojiUploadFacts = { name: 'party_parrot', canAdd: true, nameTaken: false, fileCount: 1, isDefaultEmojiName: false, isAdmin: false, size: 100 };
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const bytes = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));

describe('customEmojiNameOf', () => {
  it('strips and turns spaces into underscores', () => {
    expect(customEmojiNameOf('  party parrot ')).toBe('party_parrot');
    expect(customEmojiNameOf(' ')).toBe('');
  });
});

describe('assertCanUploadEmoji', () => {
  it('accepts a valid upload; a default name is fine for administrators', () => {
    expect(() => assertCanUploadEmoji(ok)).not.toThrow();
    expect(() => assertCanUploadEmoji({ ...ok, isDefaultEmojiName: true, isAdmin: true })).not.toThrow();
    expect(() => assertCanUploadEmoji({ ...ok, size: MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 })).not.toThrow();
  });
  it.each([
    [{ name: 'Bad', canAdd: false }, 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    [{ canAdd: false, nameTaken: true, fileCount: 0 }, 'Insufficient permission'],
    [{ nameTaken: true, fileCount: 0 }, 'A custom emoji with this name already exists.'],
    [{ fileCount: 0, isDefaultEmojiName: true }, 'You must upload exactly one file.'],
    [{ fileCount: 2 }, 'You must upload exactly one file.'],
    [{ isDefaultEmojiName: true, size: 1e9 }, 'Only administrators can override default emoji.'],
    [{ size: MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 + 1 }, 'Uploaded file is larger than the allowed limit of 5 MiB'],
  ])('%j → %s (the first failure in Zulip’s order)', (change, msg) => {
    expect(() => assertCanUploadEmoji({ ...ok, ...change })).toThrow(msg);
  });
});

describe('emojiImageExtension', () => {
  it('names the extension of accepted types whose bytes look like an image', () => {
    expect(emojiImageExtension('image/png', png)).toBe('.png');
    expect(emojiImageExtension('image/jpeg', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('.jpg');
    expect(emojiImageExtension('IMAGE/GIF', bytes('GIF89a....'))).toBe('.gif');
    expect(emojiImageExtension('image/webp', bytes('RIFF\0\0\0\0WEBPVP8 '))).toBe('.webp');
    expect(emojiImageExtension('image/avif', bytes('\0\0\0\x1cftypavif'))).toBe('.avif');
    // The bytes need not match the declared type, as long as they are an image.
    expect(emojiImageExtension('image/gif', png)).toBe('.gif');
  });
  it('refuses other types, then bytes that are no image', () => {
    for (const type of ['image/tiff', 'image/svg+xml', 'text/plain', '', 'image/heic']) {
      expect(() => emojiImageExtension(type, png)).toThrow('Invalid image format');
    }
    expect(() => emojiImageExtension('image/png', bytes('hello world'))).toThrow('Could not decode image; did you upload an image file?');
    expect(() => emojiImageExtension('image/png', new Uint8Array())).toThrow('Could not decode image; did you upload an image file?');
  });
});

describe('assertCanRemoveCustomEmoji', () => {
  it('lets administrators and the author remove it', () => {
    expect(() => assertCanRemoveCustomEmoji(true, 1, 2)).not.toThrow();
    expect(() => assertCanRemoveCustomEmoji(true, 1, null)).not.toThrow();
    expect(() => assertCanRemoveCustomEmoji(false, 1, 1)).not.toThrow();
  });
  it('refuses anyone else, and everyone but administrators for an emoji without author', () => {
    expect(() => assertCanRemoveCustomEmoji(false, 1, 2)).toThrow('Must be an organization administrator or emoji author');
    expect(() => assertCanRemoveCustomEmoji(false, 1, null)).toThrow('Must be an organization administrator or emoji author');
  });
});
