import {
  acceptQuality,
  closestThumbnail,
  framesToLoad,
  type ImageAttachmentFacts,
  imageWithinThumbnailLimits,
  missingThumbnails,
  parseThumbnailFormat,
  rewriteThumbnailedImage,
  serverThumbnailFormats,
  type StoredThumbnail,
  thumbnailFormatName,
  thumbnailToServe,
  uploadPreviewImageHtml,
  uploadPreviewOf,
} from './thumbnails.js';

const image = (o: Partial<ImageAttachmentFacts> = {}): ImageAttachmentFacts => ({
  pathId: '2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/cat.png',
  originalWidth: 150,
  originalHeight: 100,
  frames: 1,
  contentType: 'image/png',
  thumbnails: [],
  ...o,
});
const stored = (name: string, o: Partial<StoredThumbnail> = {}): StoredThumbnail => ({
  ...parseThumbnailFormat(name)!,
  contentType: 'image/webp',
  width: 100,
  height: 50,
  byteSize: 1000,
  ...o,
});

describe('thumbnail formats (zerver/tests/test_thumbnail.py ThumbnailClassesTest)', () => {
  it('are named stably and parse back', () => {
    expect(thumbnailFormatName({ extension: 'webp', maxWidth: 150, maxHeight: 100, animated: false })).toBe('150x100.webp');
    expect(thumbnailFormatName({ extension: 'webp', maxWidth: 150, maxHeight: 100, animated: true })).toBe('150x100-anim.webp');
    expect(parseThumbnailFormat('150x100-anim.webp')).toEqual({ extension: 'webp', maxWidth: 150, maxHeight: 100, animated: true });
    for (const bad of ['bad.webp', '150x100', '150x100.webp.png', '-1x2.webp', '1x2-anim', '']) expect(parseThumbnailFormat(bad)).toBeNull();
  });

  it("are Zulip's in register", () => {
    expect(serverThumbnailFormats()).toEqual([
      { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ]);
  });
});

describe('missingThumbnails', () => {
  it('makes no animated format of a still image, and skips those made', () => {
    expect(missingThumbnails(image()).map(thumbnailFormatName)).toEqual(['840x560.webp']);
    expect(missingThumbnails(image({ frames: 10 })).map(thumbnailFormatName)).toEqual(['840x560-anim.webp', '840x560.webp']);
    expect(missingThumbnails(image({ frames: 10, thumbnails: [stored('840x560.webp')] })).map(thumbnailFormatName)).toEqual(['840x560-anim.webp']);
  });

  it('adds the large transcoded format for types browsers cannot show, turned for portrait images', () => {
    expect(missingThumbnails(image({ contentType: 'image/tiff' })).map(thumbnailFormatName)).toEqual(['840x560.webp', '4032x3024.webp']);
    expect(missingThumbnails(image({ contentType: 'image/tiff', originalHeight: 300 })).map(thumbnailFormatName)).toEqual(['840x560.webp', '3024x4032.webp']);
  });
});

describe('decompression bombs and animations', () => {
  it('refuses images beyond IMAGE_BOMB_TOTAL_PIXELS, and animations whose first three frames exceed a third of it', () => {
    expect(imageWithinThumbnailLimits(9000, 10_000, 1)).toBe(true);
    expect(imageWithinThumbnailLimits(20_000, 20_000, 1)).toBe(false);
    expect(imageWithinThumbnailLimits(1000, 1000, 1_000_000)).toBe(true);
    expect(imageWithinThumbnailLimits(5000, 5000, 2)).toBe(false);
    expect(imageWithinThumbnailLimits(0, 10, 1)).toBe(false);
  });

  it('loads every frame of an animation while they fit, else as many as fit; one for a still format', () => {
    const anim = { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: true };
    expect(framesToLoad(image({ frames: 69, originalWidth: 200, originalHeight: 100 }), anim)).toBe('all');
    expect(framesToLoad(image({ frames: 2000, originalWidth: 200, originalHeight: 100 }), anim)).toBe(1500);
    expect(framesToLoad(image({ frames: 69 }), { ...anim, animated: false })).toBe(1);
  });
});

describe('the preview of an uploaded image in a rendered message', () => {
  const url = '/user_uploads/2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/cat.png';
  const placeholder = `<div class="message_inline_image"><a href="${url}" title="cat"><img class="image-loading-placeholder" data-original-dimensions="150x100" src="/static/images/loading/loader-black.svg"></a></div>`;

  it('is a placeholder until a thumbnail exists, then the thumbnail with the original facts', () => {
    expect(uploadPreviewImageHtml(uploadPreviewOf(image()))).toBe(
      '<img class="image-loading-placeholder" data-original-dimensions="150x100" src="/static/images/loading/loader-black.svg">',
    );
    expect(uploadPreviewImageHtml(uploadPreviewOf(image({ thumbnails: [stored('840x560.webp')] })))).toBe(
      `<img data-original-content-type="image/png" data-original-dimensions="150x100" src="/user_uploads/thumbnail/${url.slice(14)}/840x560.webp">`,
    );
    const gif = image({ contentType: 'image/gif', frames: 3, thumbnails: [stored('840x560-anim.webp'), stored('840x560.webp')] });
    expect(uploadPreviewImageHtml(uploadPreviewOf(gif))).toBe(
      `<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="150x100" src="/user_uploads/thumbnail/${url.slice(14)}/840x560-anim.webp">`,
    );
    const tiff = image({ contentType: 'image/tiff', thumbnails: [stored('840x560.webp'), stored('4032x3024.webp', { width: 150, height: 100 })] });
    expect(uploadPreviewImageHtml(uploadPreviewOf(tiff))).toContain('data-transcoded-image="4032x3024.webp"');
  });

  it("is rewritten in stored renderings: that image's placeholders only, or removed when it failed", () => {
    const otherUrl = '/user_uploads/2/cd/BBBBBBBBBBBBBBBBBBBBBBBB/dog.png';
    const other = placeholder.replaceAll(url, otherUrl);
    const html = `<p>x</p>\n${placeholder}${other}`;
    const done = uploadPreviewOf(image({ thumbnails: [stored('840x560.webp')] }));
    expect(rewriteThumbnailedImage(html, url.slice(14), done)).toBe(`<p>x</p>\n${placeholder.replace(/<img[^>]*>/, uploadPreviewImageHtml(done))}${other}`);
    expect(rewriteThumbnailedImage(html, url.slice(14), null)).toBe(`<p>x</p>\n${other}`);
    expect(rewriteThumbnailedImage(`<p>x</p>\n${placeholder}`, url.slice(14), null)).toBe('<p>x</p>');
    expect(rewriteThumbnailedImage('<p>no image</p>', url.slice(14), done)).toBeNull();
    // Already rewritten: nothing more to do.
    expect(rewriteThumbnailedImage(rewriteThumbnailedImage(html, url.slice(14), done)!, url.slice(14), done)).toBeNull();
  });
});

describe('which thumbnail answers a request (zerver/tests/test_thumbnail.py TestThumbnailRetrieval)', () => {
  it('serves a made format, makes a missing current one, and finds the closest for others', () => {
    const still = image({ thumbnails: [stored('840x560.webp')] });
    expect(thumbnailToServe(still, '840x560.webp', undefined)).toEqual(still.thumbnails[0]);
    expect(thumbnailToServe(image(), '840x560.webp', undefined)).toBe('missing');
    expect(thumbnailToServe(image(), '1x1.png', undefined)).toBeNull();
    expect(thumbnailToServe(still, 'bogus', undefined)).toBeNull();
    expect(thumbnailToServe(still, '840x560-anim.webp', undefined)).toEqual(still.thumbnails[0]);
    expect(thumbnailToServe(image({ frames: 3, thumbnails: [stored('840x560.webp')] }), '840x560-anim.webp', undefined)).toBe('missing');
  });

  it("grades by animation, extension, the client's preference, width, then bytes", () => {
    const made = [
      stored('100x75-anim.webp', { byteSize: 500 }),
      stored('100x75.webp', { byteSize: 300 }),
      stored('10x10.webp', { byteSize: 50 }),
      stored('100x75.gif', { contentType: 'image/gif', byteSize: 400 }),
    ];
    const name = (f: StoredThumbnail) => thumbnailFormatName(f);
    const accept = 'image/webp, image/*, */*;q=0.8';
    expect(name(closestThumbnail(parseThumbnailFormat('100x75-anim.gif')!, made, accept))).toBe('100x75-anim.webp');
    expect(name(closestThumbnail(parseThumbnailFormat('10x10.gif')!, made, accept))).toBe('100x75.gif');
    expect(name(closestThumbnail(parseThumbnailFormat('10x10.tif')!, made, accept))).toBe('10x10.webp');
    expect(name(closestThumbnail(parseThumbnailFormat('10x10.tif')!, made, 'image/webp;q=0.9, image/gif'))).toBe('100x75.gif');
    expect(name(closestThumbnail(parseThumbnailFormat('80x10.webp')!, made, accept))).toBe('100x75.webp');
    expect(name(closestThumbnail(parseThumbnailFormat('100x75.tif')!, made, 'image/gif, image/webp'))).toBe('100x75.webp');
  });

  it('reads Accept headers', () => {
    expect(acceptQuality('image/webp;q=0.9, image/gif', 'image/webp')).toBe(0.9);
    expect(acceptQuality('image/*;q=0.5, */*;q=0.1', 'image/webp')).toBe(0.5);
    expect(acceptQuality('text/html', 'image/webp')).toBeNull();
    expect(acceptQuality(undefined, 'image/webp')).toBeNull();
  });
});
