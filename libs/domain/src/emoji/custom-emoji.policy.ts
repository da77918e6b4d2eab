import { badRequest, insufficientPermission } from '../shared/domain-error.js';
import { checkValidEmojiName, customEmojiAlreadyExists } from './emoji.js';

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB default. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** The name of POST /realm/emoji/{emoji_name}: stripped, spaces turned into `_`. */
export const customEmojiNameOf = (raw: string): string => raw.trim().replaceAll(' ', '_');

/** What the upload rules need to know, fetched by the application. */
export interface EmojiUploadFacts {
  /** Already through customEmojiNameOf. */
  name: string;
  /** The uploader holds can_add_custom_emoji_group. */
  canAdd: boolean;
  /** An active custom emoji already has the name. */
  nameTaken: boolean;
  fileCount: number;
  /** The name is a default (Unicode) emoji name or alias. */
  isDefaultEmojiName: boolean;
  isAdmin: boolean;
  /** Bytes of the (single) file. */
  size: number;
}

/** Zulip's upload_emoji checks, in its order; the first failure wins. */
export function assertCanUploadEmoji(f: EmojiUploadFacts): void {
  checkValidEmojiName(f.name);
  if (!f.canAdd) throw insufficientPermission();
  if (f.nameTaken) throw customEmojiAlreadyExists();
  if (f.fileCount !== 1) throw badRequest('You must upload exactly one file.');
  if (f.isDefaultEmojiName && !f.isAdmin) throw badRequest('Only administrators can override default emoji.');
  if (f.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
}

/**
 * The image types an emoji may have (Zulip: thumbnail-accepted and inline-safe types) and the
 * extension its file gets (Python's guess_extension).
 */
const EMOJI_IMAGE_TYPES: Readonly<Record<string, string>> = {
  'image/avif': '.avif',
  'image/gif': '.gif',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
};

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** Whether the bytes start like an image of one of the accepted formats. */
function looksLikeImage(head: Uint8Array): boolean {
  if (head.length >= 8 && head[0] === 0x89 && ascii(head, 1, 4) === 'PNG') return true;
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return true;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return true;
  return ascii(head, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(head, 8, 12));
}

/**
 * The stored file's extension for an uploaded emoji image (Zulip's check_add_realm_emoji and
 * upload_emoji_image): the declared type must be an accepted image type, and the bytes must be
 * an image the server can read.
 */
export function emojiImageExtension(contentType: string, head: Uint8Array): string {
  const extension = EMOJI_IMAGE_TYPES[contentType.toLowerCase()];
  if (extension === undefined) throw badRequest('Invalid image format');
  if (!looksLikeImage(head)) throw badRequest('Could not decode image; did you upload an image file?');
  return extension;
}

/** Zulip's check_remove_custom_emoji: administrators, or the emoji's author. */
export function assertCanRemoveCustomEmoji(isAdmin: boolean, actorId: number, authorId: number | null): void {
  if (isAdmin) return;
  if (authorId === null || authorId !== actorId) throw badRequest('Must be an organization administrator or emoji author');
}
