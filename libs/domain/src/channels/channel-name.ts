import { badRequest } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';

export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

function isNonCharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/** Zulip's check_stream_name: trimmed, non-empty, ≤ 60 code points, no control/surrogate/non-characters. */
export function parseChannelName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest("Channel name can't be empty.");
  if (codePointLength(name) > MAX_CHANNEL_NAME_LENGTH) {
    throw badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  let position = 0;
  for (const ch of name) {
    position += 1;
    const cp = ch.codePointAt(0)!;
    if (/[\p{Cc}\p{Cs}]/u.test(ch) || isNonCharacter(cp)) {
      throw badRequest(`Invalid character in channel name, at position ${position}.`);
    }
  }
  return name;
}

/** Channel descriptions are one line: newlines become spaces. */
export function normaliseDescription(raw: string): string {
  return raw.replace(/\r?\n/g, ' ');
}

export const invalidChannelId = () => badRequest('Invalid channel ID');
export const invalidChannelName = (name: string) => badRequest(`Invalid channel name '${name}'`);

export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

/** Folder names: trimmed, non-empty, printable (length limits are parameter checks). */
export function parseChannelFolderName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest("Channel folder name can't be empty.");
  let position = 0;
  for (const ch of name) {
    position += 1;
    if (/[\p{Cc}\p{Cs}]/u.test(ch) || isNonCharacter(ch.codePointAt(0)!)) {
      throw badRequest(`Invalid character in channel folder name, at position ${position}.`);
    }
  }
  return name;
}

/**
 * Zulip's try_reorder_realm_channel_folders: each folder's position is its (last) index in
 * `order`; every folder of the organization must be in it, and other ids are ignored.
 */
export function channelFolderPositions(order: readonly number[], folderIds: readonly number[]): Map<number, number> {
  const index = new Map<number, number>();
  order.forEach((id, i) => index.set(id, i));
  if (folderIds.some((id) => !index.has(id))) throw badRequest('Invalid order mapping.');
  return new Map(folderIds.map((id) => [id, index.get(id)!]));
}
