import { IMAGE_BOMB_TOTAL_PIXELS } from '@app/domain/shared';
import type { ThumbnailFormat } from '@app/domain/messages';
import sharp, { type FormatEnum } from 'sharp';
import { type ImageProbe, ImageThumbnailer, type MadeThumbnail } from '../application/thumbnail.ports.js';

/** The formats sharp reports for the loaders left on (AVIF and HEIC both read as `heif`). */
const DECODED_FORMATS = new Set(['heif', 'gif', 'jpeg', 'png', 'tiff', 'webp']);

let loadersRestricted = false;

/**
 * As Zulip configures pyvips: every libvips loader off, then only those of the accepted image
 * types on again (HEIF/AVIF, GIF, JPEG, PNG, TIFF, WebP), so no upload ever reaches the SVG, PDF,
 * ImageMagick or other loaders; no operation cache. (The same settings as the avatar processor's:
 * they are the process's, whichever sets them first.)
 */
function restrictLoaders(): void {
  if (loadersRestricted) return;
  sharp.block({ operation: ['VipsForeignLoad'] });
  sharp.unblock({
    operation: ['VipsForeignLoadHeif', 'VipsForeignLoadNsgif', 'VipsForeignLoadJpeg', 'VipsForeignLoadPng', 'VipsForeignLoadTiff', 'VipsForeignLoadWebp'],
  });
  sharp.cache(false);
  loadersRestricted = true;
}

/**
 * ImageThumbnailer on sharp (libvips). `probe` reads the header only, whatever the size it
 * claims, so that a decompression bomb is recognised without decoding it. `thumbnail` decodes
 * with Zulip's IMAGE_BOMB_TOTAL_PIXELS as libvips' own input limit (a second line of defence),
 * failing on decoding errors, and does the work on libvips' threads, off the event loop: a
 * corrupt or hostile image rejects the promise, nothing more.
 */
export class SharpImageThumbnailer extends ImageThumbnailer {
  constructor() {
    super();
    restrictLoaders();
  }

  async probe(file: string): Promise<ImageProbe> {
    const header = await sharp(file, { limitInputPixels: false }).metadata().catch(() => null);
    if (header === null || header.format === undefined || !DECODED_FORMATS.has(header.format) || !header.width || !header.height) {
      return { kind: 'not_image' };
    }
    // Orientations 5-8 turn the image a quarter: as shown, it is as wide as the bytes are tall.
    const turned = header.orientation !== undefined && header.orientation >= 5 && header.orientation <= 8;
    return {
      kind: 'image',
      width: turned ? header.height : header.width,
      height: turned ? header.width : header.height,
      frames: Math.max(1, header.pages ?? 1),
    };
  }

  async thumbnail(file: string, format: ThumbnailFormat, frames: number | 'all'): Promise<MadeThumbnail> {
    const pages = frames === 'all' ? { animated: true } : { pages: frames };
    const { data, info } = await sharp(file, { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, failOn: 'error', ...pages })
      .autoOrient()
      .resize(format.maxWidth, format.maxHeight, { fit: 'inside', withoutEnlargement: true })
      .toFormat(format.extension as keyof FormatEnum)
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: format.animated ? (info.pageHeight ?? info.height) : info.height };
  }
}
