import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { TestApp } from './test-app.js';

/** A still image of one colour, made by sharp. */
export const solidImage = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'tiff', rgb = { r: 200, g: 60, b: 30 }) =>
  sharp({ create: { width, height, channels: 3, background: rgb } })
    .toFormat(format)
    .toBuffer();

/** A JPEG whose EXIF orientation (6: turned a quarter clockwise) makes it shown `height` wide and `width` tall. */
export const rotatedJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 240 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** An animated GIF of `frames` frames of different colours, made by sharp. */
export async function animatedGif(width: number, height: number, frames = 3): Promise<Buffer> {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: { r: (i * 80) % 256, g: 255 - i * 60, b: 40 } } }).png().toBuffer()),
  );
  return sharp(pages, { join: { animated: true } })
    .gif({ delay: pages.map(() => 100), loop: 0 })
    .toBuffer();
}

/** A PNG whose header is intact but whose pixel data stops half way (it does not decode). */
export async function truncatedPng(): Promise<Buffer> {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 1, g: 200, b: 3 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return png.subarray(0, Math.floor(png.length / 2));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid single-colour (black, 1-bit greyscale) PNG of `side` × `side`
 * pixels, a few dozen kilobytes that decode to side² pixels. Written directly (sharp would
 * take seconds to encode one).
 */
export function bombPng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side); // each row: filter 0, then zero bits
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What sharp reads of an image (every frame counted). */
export async function imageInfo(data: Buffer): Promise<{ format?: string; width?: number; height?: number; pages?: number; pageHeight?: number }> {
  const m = await sharp(data, { animated: true, limitInputPixels: false }).metadata();
  return { format: m.format, width: m.width, height: m.pageHeight ?? m.height, pages: m.pages ?? 1 };
}

/** A GET whose body is kept as a Buffer, whatever its content type (images, archives). */
export const getBinary = (t: TestApp, url: string) =>
  t.http
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
