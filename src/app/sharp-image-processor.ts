import {
  assertImageWithinPixelLimit,
  IMAGE_BOMB_TOTAL_PIXELS,
  imageCorrupted,
  imageNotDecodable,
  LOGO_MAX_HEIGHT,
  LOGO_MAX_WIDTH,
} from '@app/domain/shared';
import sharp, { type Sharp } from 'sharp';
import { DECODED_IMAGE_FORMATS, restrictImageLoaders } from '../shared/persistence/sharp-decoding.js';
import { ImageProcessor } from '../shared/application/images.js';
import { rateLimited } from '../shared/application/rate-limiter.js';

export interface DecodingCapacity {
  /** Images decoded at once (each on libvips' own threads, off the event loop). */
  readonly concurrency: number;
  /** Uploads that may wait for a free slot; one more is refused with the rate-limit error. */
  readonly queue: number;
}

/**
 * ImageProcessor on sharp (libvips): the header is read first (format and size, no pixels), so a
 * decompression bomb is refused before any decoding; then the first frame is decoded, turned
 * by its EXIF orientation and resized. At most `concurrency` images are worked on at once.
 */
export class SharpImageProcessor extends ImageProcessor {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly capacity: DecodingCapacity) {
    super();
    restrictImageLoaders();
  }

  squares(file: string, sides: readonly number[]): Promise<Buffer[]> {
    return this.bounded(file, (image) =>
      Promise.all(sides.map((side) => image.clone().resize(side, side, { fit: 'cover', position: 'centre' }).png().toBuffer())),
    );
  }

  async logo(file: string): Promise<Buffer> {
    return this.bounded(file, (image) =>
      image.resize(LOGO_MAX_WIDTH, LOGO_MAX_HEIGHT, { fit: 'inside', withoutEnlargement: true }).png().toBuffer(),
    );
  }

  private async bounded<T>(file: string, work: (image: Sharp) => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      const header = await sharp(file, { animated: false }).metadata().catch(() => {
        throw imageNotDecodable();
      });
      if (header.format === undefined || !DECODED_IMAGE_FORMATS.has(header.format) || !header.width || !header.height) throw imageNotDecodable();
      assertImageWithinPixelLimit(header.width, header.height, header.pages ?? 1);
      const image = sharp(file, { animated: false, failOn: 'error', limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS }).autoOrient();
      return await work(image).catch(() => {
        throw imageCorrupted();
      });
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.capacity.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.capacity.queue) return Promise.reject(rateLimited(1));
    // The slot passes straight to the next waiter: `running` stays counted for it.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.running -= 1;
  }
}
