import type { AudienceChannel, ImageAttachmentFacts, StoredThumbnail, ThumbnailFormat } from '@app/domain/messages';

/** An uploaded image as stored (Zulip's ImageAttachment row). */
export interface ImageAttachmentRecord extends ImageAttachmentFacts {
  readonly id: number;
  readonly realmId: number;
  readonly attachmentId: number;
  readonly status: 'pending' | 'done' | 'failed';
}

/** An image claimed by one thumbnail worker for one attempt. */
export interface ClaimedImage extends ImageAttachmentRecord {
  readonly leaseToken: string;
  /** This claim's number (1 for the first). */
  readonly attempts: number;
}

/** How thumbnailing an image ended. */
export type ThumbnailOutcome = { status: 'done'; thumbnails: readonly StoredThumbnail[] } | { status: 'failed'; error: string };

/** A message that shows an uploaded image, as its re-rendering and event need it. */
export interface ImageMessage {
  readonly id: number;
  readonly content: string;
  readonly renderedContent: string;
  /** Its channel (null: a direct message). */
  readonly channel: AudienceChannel | null;
}

/** A user holding a row for one of those messages. */
export interface ImageMessageReader {
  readonly messageId: number;
  readonly userId: number;
  readonly flags: number;
  /** An active subscription of an active user to the message's channel. */
  readonly subscribed: boolean;
  readonly isGuest: boolean;
}

/** The `image_attachments` rows, and the messages showing those images, inside a transaction. */
export abstract class ImageAttachmentRepository {
  /** Records an uploaded image: `pending` (to thumbnail), or `failed` with the reason (never decoded). */
  abstract insert(image: {
    realmId: number;
    attachmentId: number;
    pathId: string;
    width: number;
    height: number;
    frames: number;
    contentType: string;
    failure: string | null;
  }): Promise<number>;
  /**
   * The organization's images of these paths that can be previewed (not failed), row-locked
   * FOR KEY SHARE: recording a thumbnail (`finish`, FOR UPDATE) waits for the rendering
   * transaction, so it then sees (and re-renders) a message rendered with a placeholder, while
   * claiming an image for thumbnailing does not wait.
   */
  abstract previewable(realmId: number, pathIds: readonly string[]): Promise<ImageAttachmentRecord[]>;
  /** The organization's image of that path (any status), or null. */
  abstract byPath(realmId: number, pathId: string): Promise<ImageAttachmentRecord | null>;
  /** Records the outcome while the claim still holds its lease; false when it lost it (or the image is gone). */
  abstract finish(id: number, leaseToken: string, outcome: ThumbnailOutcome): Promise<boolean>;
  /** The messages linking the attachment, row-locked (FOR UPDATE), by id. */
  abstract lockMessagesOf(attachmentId: number): Promise<ImageMessage[]>;
  /** New renderings of messages, in one statement. */
  abstract updateRenderings(updates: readonly { id: number; renderedContent: string }[]): Promise<void>;
  /** Everyone holding a row for these messages, with their flags and access facts. */
  abstract readersOf(messageIds: readonly number[]): Promise<ImageMessageReader[]>;
}

/** The images still to thumbnail, as a queue shared by every server process (each statement its own transaction). */
export abstract class ThumbnailQueue {
  /**
   * Claims the oldest pending image whose lease is free (or only `id`): `FOR UPDATE SKIP LOCKED`,
   * then a fresh lease token, `leaseUntil`, one more attempt.
   */
  abstract claimNext(o: { now: Date; leaseUntil: Date; id?: number }): Promise<ClaimedImage | null>;
}

/** What an upload's header says. */
export type ImageProbe = { kind: 'image'; width: number; height: number; frames: number } | { kind: 'not_image' };

/** One thumbnail made: its bytes and size (of one frame, for an animation). */
export interface MadeThumbnail {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

/** Reading and thumbnailing uploaded images (libvips), off the event loop. */
export abstract class ImageThumbnailer {
  /** The header only (no pixels decoded): dimensions as shown (after EXIF orientation) and frame count. */
  abstract probe(file: string): Promise<ImageProbe>;
  /**
   * A thumbnail of the file in this format, of `frames` frames (scaled down to fit, never up,
   * turned by its EXIF orientation). Rejects when the image is corrupt or too big to decode.
   */
  abstract thumbnail(file: string, format: ThumbnailFormat, frames: number | 'all'): Promise<MadeThumbnail>;
}

/** Signed, short-lived access to one upload without credentials (Zulip's temporary upload URLs). */
export abstract class UploadAccessTokens {
  /** A token for the upload, valid UPLOAD_ACCESS_TOKEN_SECONDS from `now`. */
  abstract issue(pathId: string, now: Date): Promise<string>;
  /** The upload a token names, or null: malformed, forged, or expired at `now`. */
  abstract verify(token: string, now: Date): Promise<string | null>;
}

/** Zulip's SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS. */
export const UPLOAD_ACCESS_TOKEN_SECONDS = 60;

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly imageAttachments: ImageAttachmentRepository;
  }
}
