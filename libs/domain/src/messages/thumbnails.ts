import { ACCEPTED_IMAGE_TYPES, IMAGE_BOMB_TOTAL_PIXELS } from '../shared/image-upload.js';

/*
 * Thumbnails of uploaded images, as Zulip makes them (zerver/lib/thumbnail.py,
 * zerver/worker/thumbnail.py, serve_file in zerver/views/upload.py): which formats exist, which
 * an image still needs, where they are stored, how a rendered message shows an uploaded image
 * (a loading placeholder until its thumbnail exists, then the thumbnail), and which stored
 * thumbnail answers a request for a format.
 */

/** A thumbnail format (Zulip's BaseThumbnailFormat): fits within max_width × max_height, never scaled up. */
export interface ThumbnailFormat {
  readonly extension: string;
  readonly maxWidth: number;
  readonly maxHeight: number;
  readonly animated: boolean;
}

/** A thumbnail that was made (Zulip's StoredThumbnailFormat, kept in `thumbnail_metadata`). */
export interface StoredThumbnail extends ThumbnailFormat {
  readonly contentType: string;
  /** Its actual size (of one frame, for an animation). */
  readonly width: number;
  readonly height: number;
  readonly byteSize: number;
}

/** What the server knows of an uploaded image (Zulip's ImageAttachment). */
export interface ImageAttachmentFacts {
  readonly pathId: string;
  /** As shown: after the EXIF orientation is applied. */
  readonly originalWidth: number;
  readonly originalHeight: number;
  readonly frames: number;
  /** The content type the upload claimed (one of THUMBNAIL_ACCEPT_IMAGE_TYPES). */
  readonly contentType: string;
  readonly thumbnails: readonly StoredThumbnail[];
}

/** `840x560-anim.webp`: the name of a format in URLs and paths (stable: rendered messages hold it). */
export function thumbnailFormatName(f: ThumbnailFormat): string {
  return `${f.maxWidth}x${f.maxHeight}${f.animated ? '-anim' : ''}.${f.extension}`;
}

/** A format name back into its format (Zulip's BaseThumbnailFormat.from_string); null when it is none. */
export function parseThumbnailFormat(name: string): ThumbnailFormat | null {
  const m = /^(\d{1,9})x(\d{1,9})(-anim)?\.(\w+)$/.exec(name);
  if (m === null) return null;
  return { maxWidth: Number(m[1]), maxHeight: Number(m[2]), animated: m[3] !== undefined, extension: m[4] };
}

const sameFormat = (a: ThumbnailFormat, b: ThumbnailFormat): boolean => thumbnailFormatName(a) === thumbnailFormatName(b);

/**
 * Zulip's THUMBNAIL_OUTPUT_FORMATS: the formats made of every image; the first animated and the
 * first still one are written into rendered messages.
 */
export const THUMBNAIL_OUTPUT_FORMATS: readonly ThumbnailFormat[] = [
  { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: true },
  { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: false },
];

/** Zulip's TRANSCODED_IMAGE_FORMAT: also made of images browsers cannot show (TIFF, HEIC), turned for portrait ones. */
export const TRANSCODED_IMAGE_FORMAT: ThumbnailFormat = { extension: 'webp', maxWidth: 4032, maxHeight: 3024, animated: false };

/** Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES (of the loaders this server enables): uploads claiming another type are never parsed. */
export const THUMBNAIL_ACCEPT_IMAGE_TYPES: ReadonlySet<string> = ACCEPTED_IMAGE_TYPES;

/** The image types of Zulip's INLINE_MIME_TYPES: browsers show these themselves. */
const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);

/** Zulip's IMAGE_MAX_ANIMATED_PIXELS: what the frames of an animated thumbnail may add up to. */
export const IMAGE_MAX_ANIMATED_PIXELS = IMAGE_BOMB_TOTAL_PIXELS / 3;

/** Content types of the thumbnail extensions (Python's mimetypes, as Zulip's guess_type). */
const THUMBNAIL_CONTENT_TYPES: Readonly<Record<string, string>> = { webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif' };
export const thumbnailContentType = (extension: string): string => THUMBNAIL_CONTENT_TYPES[extension] ?? 'application/octet-stream';

/**
 * Zulip's libvips_check_image with truncated animations (maybe_thumbnail): a still image within
 * IMAGE_BOMB_TOTAL_PIXELS, an animation whose first three frames fit IMAGE_MAX_ANIMATED_PIXELS.
 * Anything bigger is a decompression bomb: never decoded, never previewed.
 */
export function imageWithinThumbnailLimits(width: number, height: number, frames: number): boolean {
  if (width < 1 || height < 1) return false;
  if (frames <= 1) return width * height <= IMAGE_BOMB_TOTAL_PIXELS;
  return width * height * Math.min(3, frames) <= IMAGE_MAX_ANIMATED_PIXELS;
}

/** Zulip's missing_thumbnails: the formats not made yet (no animated ones of a still image). */
export function missingThumbnails(image: ImageAttachmentFacts): ThumbnailFormat[] {
  const wanted = [...THUMBNAIL_OUTPUT_FORMATS];
  if (!INLINE_IMAGE_TYPES.has(image.contentType)) {
    const t = TRANSCODED_IMAGE_FORMAT;
    wanted.push(image.originalWidth >= image.originalHeight ? t : { ...t, maxWidth: t.maxHeight, maxHeight: t.maxWidth });
  }
  return wanted.filter((f) => !image.thumbnails.some((s) => sameFormat(s, f)) && (image.frames > 1 || !f.animated));
}

/**
 * How many frames a thumbnail of this format is made of (Zulip's load options): all of an
 * animation while they fit IMAGE_MAX_ANIMATED_PIXELS, else as many as fit; one for a still format.
 * `'all'` means every frame.
 */
export function framesToLoad(image: ImageAttachmentFacts, format: ThumbnailFormat): number | 'all' {
  if (image.frames <= 1 || !format.animated) return 1;
  const perFrame = image.originalWidth * image.originalHeight;
  return perFrame * image.frames < IMAGE_MAX_ANIMATED_PIXELS ? 'all' : Math.max(1, Math.floor(IMAGE_MAX_ANIMATED_PIXELS / perFrame));
}

/** Zulip's get_image_thumbnail_path: where a thumbnail is stored, beside the uploads. */
export const thumbnailPath = (pathId: string, format: ThumbnailFormat): string => `thumbnail/${pathId}/${thumbnailFormatName(format)}`;

/** Zulip's get_default_thumbnail_url: the first output format of the image's kind (animated or still). */
export function defaultThumbnail(image: ImageAttachmentFacts): { url: string; animated: boolean } {
  const format = THUMBNAIL_OUTPUT_FORMATS.find((f) => f.animated === image.frames > 1) ?? THUMBNAIL_OUTPUT_FORMATS[0];
  return { url: `/user_uploads/${thumbnailPath(image.pathId, format)}`, animated: format.animated };
}

/** Zulip's get_transcoded_format: for a type browsers cannot show, the largest thumbnail made. */
export function transcodedThumbnail(image: ImageAttachmentFacts): StoredThumbnail | null {
  if (INLINE_IMAGE_TYPES.has(image.contentType) || image.thumbnails.length === 0) return null;
  return [...image.thumbnails].sort((a, b) => a.width * a.height - b.width * b.height).pop()!;
}

/** How a rendered message shows an uploaded image (Zulip's MarkdownImageMetadata). */
export interface UploadPreview {
  /** The default thumbnail's URL; null while no thumbnail exists (a loading placeholder is shown). */
  readonly url: string | null;
  readonly animated: boolean;
  readonly originalWidth: number;
  readonly originalHeight: number;
  readonly contentType: string;
  /** The name of the transcoded thumbnail, for types browsers cannot show. */
  readonly transcoded: string | null;
}

/** Zulip's get_user_upload_previews, for one image. */
export function uploadPreviewOf(image: ImageAttachmentFacts): UploadPreview {
  const base = { originalWidth: image.originalWidth, originalHeight: image.originalHeight, contentType: image.contentType };
  if (image.thumbnails.length === 0) return { ...base, url: null, animated: false, transcoded: null };
  const { url, animated } = defaultThumbnail(image);
  const transcoded = transcodedThumbnail(image);
  return { ...base, url, animated, transcoded: transcoded === null ? null : thumbnailFormatName(transcoded) };
}

/** Zulip's loading spinner, the `src` of a placeholder. */
export const THUMBNAIL_PLACEHOLDER_SRC = '/static/images/loading/loader-black.svg';

const escapeAttribute = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
const unescapeAttribute = (s: string): string => s.replace(/&(amp|lt|gt|quot);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e]!);

/** `<img …>` with the attributes in alphabetical order, as Zulip's serializers write them. */
function imgTag(attrs: Record<string, string | undefined>): string {
  const list = Object.entries(attrs)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`);
  return `<img${list.join('')}>`;
}

/**
 * The `<img>` of an uploaded image's preview: Zulip's placeholder (`image-loading-placeholder`,
 * the original dimensions) while no thumbnail exists, else what rewrite_thumbnailed_images makes
 * of it (the thumbnail, dimensions, original content type, animated, transcoded image).
 */
export function uploadPreviewImageHtml(preview: UploadPreview): string {
  const dimensions = `${preview.originalWidth}x${preview.originalHeight}`;
  if (preview.url === null) return imgTag({ class: 'image-loading-placeholder', 'data-original-dimensions': dimensions, src: THUMBNAIL_PLACEHOLDER_SRC });
  return imgTag({
    'data-animated': preview.animated ? 'true' : undefined,
    'data-original-content-type': preview.contentType,
    'data-original-dimensions': dimensions,
    'data-transcoded-image': preview.transcoded ?? undefined,
    src: preview.url,
  });
}

const PLACEHOLDER_PREVIEW =
  /<div class="message_inline_image"><a href="([^"]*)"([^>]*)>(<img class="image-loading-placeholder" data-original-dimensions="\d+x\d+" src="\/static\/images\/loading\/loader-black\.svg">)<\/a><\/div>/g;

/**
 * Zulip's rewrite_thumbnailed_images for one image: in a stored rendering, the placeholders of
 * the upload `pathId` become its thumbnail, or (null: the image could not be thumbnailed) their
 * whole preview goes. Null when nothing changed (no placeholder of that image).
 */
export function rewriteThumbnailedImage(renderedContent: string, pathId: string, preview: UploadPreview | null): string | null {
  let changed = false;
  const out = renderedContent.replace(PLACEHOLDER_PREVIEW, (whole, href: string, rest: string) => {
    if (unescapeAttribute(href) !== `/user_uploads/${pathId}`) return whole;
    changed = true;
    return preview === null ? '' : `<div class="message_inline_image"><a href="${href}"${rest}>${uploadPreviewImageHtml(preview)}</a></div>`;
  });
  // Zulip's rewrite writes the message out again, stripped.
  return changed ? out.trim() : null;
}

/** register's `server_thumbnail_formats`. */
export function serverThumbnailFormats(): { name: string; max_width: number; max_height: number; format: string; animated: boolean }[] {
  return THUMBNAIL_OUTPUT_FORMATS.map((f) => ({ name: thumbnailFormatName(f), max_width: f.maxWidth, max_height: f.maxHeight, format: f.extension, animated: f.animated }));
}

/** How much a client wants a content type, from its Accept header (null: not at all, or no header). */
export function acceptQuality(accept: string | undefined, contentType: string): number | null {
  if (accept === undefined || accept.trim() === '') return null;
  const [type] = contentType.split('/');
  let best: { specificity: number; q: number } | null = null;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const specificity = range === contentType ? 2 : range === `${type}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < 0 || !Number.isFinite(q)) continue;
    if (best === null || specificity > best.specificity) best = { specificity, q };
  }
  return best === null || best.q <= 0 ? null : best.q;
}

/** Zulip's closest_thumbnail_format: animated-ness first, then extension, the client's preference, width, bytes. */
export function closestThumbnail(requested: ThumbnailFormat, made: readonly StoredThumbnail[], accept: string | undefined): StoredThumbnail {
  const grade = (f: StoredThumbnail): number[] => [
    f.animated !== requested.animated ? 1 : 0,
    f.extension !== requested.extension ? 1 : 0,
    -(acceptQuality(accept, f.contentType) ?? 0),
    Math.abs(requested.maxWidth - f.maxWidth),
    f.byteSize,
  ];
  const cmp = (a: number[], b: number[]): number => a.reduce((r, x, i) => (r !== 0 ? r : x - b[i]), 0);
  return [...made].sort((a, b) => cmp(grade(a), grade(b)))[0];
}

/**
 * Which thumbnail answers a request for `formatName` (Zulip's serve_file with a thumbnail
 * format): a made one of that format, or the closest made one when the format is not one of the
 * server's; `missing` when it is one of the server's that is not made yet (made on demand);
 * null when there is nothing to serve (unknown format, nothing made).
 */
export function thumbnailToServe(image: ImageAttachmentFacts, formatName: string, accept: string | undefined): StoredThumbnail | 'missing' | null {
  const requested = parseThumbnailFormat(formatName);
  if (requested === null) return null;
  const made = image.thumbnails.find((s) => sameFormat(s, requested));
  const current = THUMBNAIL_OUTPUT_FORMATS.filter((f) => image.frames > 1 || !f.animated);
  if (current.some((f) => sameFormat(f, requested))) return made ?? 'missing';
  if (image.thumbnails.length === 0) return null;
  return made ?? closestThumbnail(requested, image.thumbnails, accept);
}
