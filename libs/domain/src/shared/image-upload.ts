import { badRequest, DomainError } from './domain-error.js';

/**
 * Uploaded images made into avatars, organization icons and logos (Zulip's zerver/lib/thumbnail.py
 * and upload/__init__.py): which files are taken, and the answers to the others.
 */

/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE: the sides of the two stored avatar squares. */
export const DEFAULT_AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;
/** A logo is scaled down (never up) to fit 8 × DEFAULT_AVATAR_SIZE by DEFAULT_AVATAR_SIZE. */
export const LOGO_MAX_WIDTH = 8 * DEFAULT_AVATAR_SIZE;
export const LOGO_MAX_HEIGHT = DEFAULT_AVATAR_SIZE;
/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: no image with more pixels (all frames counted) is decoded. */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;

/** Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES: the content types an avatar, icon or logo may claim. */
export const ACCEPTED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/avif',
  'image/gif',
  'image/heic',
  'image/jpeg',
  'image/png',
  'image/tiff',
  'image/webp',
]);

/** Content types by file extension, for a part sent without one (Python's mimetypes, as Zulip's get_file_info guesses). */
const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  gif: 'image/gif',
  heic: 'image/heic',
  jpe: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
};

/**
 * The content type a file part claims, without parameters and lower-cased; a part that claims
 * none (or the generic application/octet-stream) is guessed from its file name's extension.
 */
export function claimedImageType(contentType: string, fileName: string): string {
  const bare = contentType.split(';')[0].trim().toLowerCase();
  if (bare !== '' && bare !== 'application/octet-stream') return bare;
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1].toLowerCase();
  return (extension !== undefined ? TYPES_BY_EXTENSION[extension] : undefined) ?? bare;
}

/** Zulip's BadImageError (code BAD_IMAGE). */
const badImage = (msg: string): DomainError => new DomainError(msg, 'BAD_IMAGE');
export const invalidImageFormat = (): DomainError => badImage('Invalid image format');
export const imageNotDecodable = (): DomainError => badImage('Could not decode image; did you upload an image file?');
export const imageTooLarge = (): DomainError => badImage('Image size exceeds limit.');
export const imageCorrupted = (): DomainError => badImage('Image is corrupted or truncated');

/** What the multipart body of an image upload held: the files read, or why reading stopped early. */
export interface ImageUploadFiles {
  sizes: readonly number[];
  /** `size`: a file (or the body) past the limit; `count`: more files than the route takes. */
  overflow: 'size' | 'count' | null;
}

/** "You must upload exactly one avatar." / "… icon." / "… logo.": none, or more than one. */
export function assertExactlyOneImage(noun: 'avatar' | 'icon' | 'logo', files: ImageUploadFiles): void {
  const count = files.overflow === 'count' ? Number.POSITIVE_INFINITY : files.overflow === 'size' ? Math.max(1, files.sizes.length) : files.sizes.length;
  if (count !== 1) throw badRequest(`You must upload exactly one ${noun}.`);
}

/** Zulip's MAX_AVATAR_FILE_SIZE_MIB (and the icon's and logo's) check: at most `maxMib` MiB. */
export function assertImageWithinLimit(files: ImageUploadFiles, maxMib: number): void {
  if (files.overflow === 'size' || (files.sizes[0] ?? 0) > maxMib * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  }
}

/** The claimed content type must be one of the image types Zulip thumbnails ("Invalid image format"). */
export function assertAcceptedImageType(claimedType: string): void {
  if (!ACCEPTED_IMAGE_TYPES.has(claimedType)) throw invalidImageFormat();
}

/** Zulip's libvips_check_image limit: width × height × frames within IMAGE_BOMB_TOTAL_PIXELS. */
export function assertImageWithinPixelLimit(width: number, height: number, frames: number): void {
  if (width * height * Math.max(1, frames) > IMAGE_BOMB_TOTAL_PIXELS) throw imageTooLarge();
}
