import {
  assertAcceptedImageType,
  assertExactlyOneImage,
  assertImageWithinLimit,
  assertImageWithinPixelLimit,
  claimedImageType,
  IMAGE_BOMB_TOTAL_PIXELS,
} from './image-upload.js';

const MiB = 1024 * 1024;
const msgOf = (f: () => void): string | null => {
  try {
    f();
    return null;
  } catch (err) {
    return (err as { msg: string; code: string }).msg + ' / ' + (err as { code: string }).code;
  }
};

describe('claimedImageType', () => {
  it('takes the part’s type without parameters, lower-cased', () => {
    expect(claimedImageType('Image/PNG; charset=binary', 'x.gif')).toBe('image/png');
  });
  it('guesses from the name when the part claims nothing or octet-stream', () => {
    expect(claimedImageType('', 'me.JPG')).toBe('image/jpeg');
    expect(claimedImageType('application/octet-stream', 'me.webp')).toBe('image/webp');
    expect(claimedImageType('', 'notes')).toBe('');
    expect(claimedImageType('application/octet-stream', 'me.bmp')).toBe('application/octet-stream');
  });
});

describe('the checks of an image upload, in Zulip’s words', () => {
  it('wants exactly one file', () => {
    expect(msgOf(() => assertExactlyOneImage('icon', { sizes: [], overflow: null }))).toBe('You must upload exactly one icon. / BAD_REQUEST');
    expect(msgOf(() => assertExactlyOneImage('logo', { sizes: [1, 2], overflow: null }))).toBe('You must upload exactly one logo. / BAD_REQUEST');
    expect(msgOf(() => assertExactlyOneImage('avatar', { sizes: [1], overflow: 'count' }))).toBe('You must upload exactly one avatar. / BAD_REQUEST');
    // A file too large to be read whole is still one file.
    expect(msgOf(() => assertExactlyOneImage('avatar', { sizes: [], overflow: 'size' }))).toBeNull();
  });
  it('takes a file of exactly the limit, not one byte more', () => {
    expect(msgOf(() => assertImageWithinLimit({ sizes: [5 * MiB], overflow: null }, 5))).toBeNull();
    expect(msgOf(() => assertImageWithinLimit({ sizes: [5 * MiB + 1], overflow: null }, 5))).toBe('Uploaded file is larger than the allowed limit of 5 MiB / BAD_REQUEST');
    expect(msgOf(() => assertImageWithinLimit({ sizes: [], overflow: 'size' }, 5))).toBe('Uploaded file is larger than the allowed limit of 5 MiB / BAD_REQUEST');
  });
  it('takes only the types Zulip thumbnails', () => {
    for (const type of ['image/avif', 'image/gif', 'image/heic', 'image/jpeg', 'image/png', 'image/tiff', 'image/webp']) {
      expect(msgOf(() => assertAcceptedImageType(type))).toBeNull();
    }
    for (const type of ['image/svg+xml', 'image/bmp', 'text/plain', '']) expect(msgOf(() => assertAcceptedImageType(type))).toBe('Invalid image format / BAD_IMAGE');
  });
  it('counts every frame against the pixel limit', () => {
    expect(msgOf(() => assertImageWithinPixelLimit(IMAGE_BOMB_TOTAL_PIXELS, 1, 1))).toBeNull();
    expect(msgOf(() => assertImageWithinPixelLimit(IMAGE_BOMB_TOTAL_PIXELS + 1, 1, 1))).toBe('Image size exceeds limit. / BAD_IMAGE');
    expect(msgOf(() => assertImageWithinPixelLimit(1000, 1000, 91))).toBe('Image size exceeds limit. / BAD_IMAGE');
  });
});
