import { IMAGE_BOMB_TOTAL_PIXELS } from '@app/domain/shared';
import type { ThumbnailFormat } from '@app/domain/messages';
import sharp, { type FormatEnum } from 'sharp';
import { DECODED_IMAGE_FORMATS, restrictImageLoaders } from '../../shared/persistence/sharp-decoding.js';
import { type ImageProbe, ImageThumbnailer, type MadeThumbnail } from '../application/thumbnail.ports.js';

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
    restrictImageLoaders();
  }

  async probe(file: string): Promise<ImageProbe> {
    const header = await sharp(file, { limitInputPixels: false }).metadata().catch(() => null);
    if (header === null || header.format === undefined || !DECODED_IMAGE_FORMATS.has(header.format) || !header.width || !header.height) {
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
