import { randomBytes } from 'node:crypto';
import {
  assertOneUploadWithinLimit,
  assertWithinUploadQuota,
  imageWithinThumbnailLimits,
  THUMBNAIL_ACCEPT_IMAGE_TYPES,
  type StoredThumbnail,
  thumbnailFormatName,
  thumbnailPath,
  thumbnailToServe,
  uploadQuotaBytes,
  type UploadOverflow,
} from '@app/domain/messages';
import { badRequest, claimedImageType, DomainError, imageTooLarge } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { readableAttachments } from './attachment-access.js';
import { attachmentEvent, presentAttachment } from './attachments.views.js';
import { type AttachmentRecord, FileStorage } from './message.ports.js';
import { type ImageProbe, ImageThumbnailer, UploadAccessTokens } from './thumbnail.ports.js';
import { ThumbnailRunner } from './thumbnail.runner.js';

export interface UploadedFile {
  originalName: string;
  tempPath: string;
  size: number;
  contentType: string;
}

/** Zulip's sanitize_name: NFKC, only word characters, spaces, dots and dashes; dashes for runs of space. */
export function sanitizeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'uploaded-file' : cleaned;
}

const notFound = () => new DomainError('File not found', 'NOT_FOUND', 'not_found');
const invalidToken = () => badRequest('Invalid token');

/** A stored thumbnail to serve. */
export interface ServedThumbnail {
  file: string;
  thumbnail: StoredThumbnail;
  name: string;
}

/** POST /user_uploads, GET /user_uploads/<path_id> and its temporary URLs and thumbnails. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly storage: FileStorage,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly thumbnailer: ImageThumbnailer,
    private readonly thumbnails: ThumbnailRunner,
    private readonly tokens: UploadAccessTokens,
  ) {}

  /**
   * POST /user_uploads (Zulip's upload_file_backend): one file within the per-file limit and
   * the organization's quota, stored, and its attachment row with an `attachment` event.
   * `overflow`: the body went past the file limits and was not read to its end. The file is
   * stored first and removed again when the attachment cannot be created.
   */
  async upload(actor: Actor, files: readonly UploadedFile[], overflow: UploadOverflow | null): Promise<{ url: string; filename: string }> {
    assertOneUploadWithinLimit(files.map((f) => f.size), overflow, this.config.maxFileUploadSizeMib);
    const [file] = files;
    const filename = sanitizeFileName(file.originalName);
    const pathId = `${actor.realmId}/${randomBytes(1).toString('hex')}/${randomBytes(18).toString('base64url')}/${filename}`;
    await this.storage.save(pathId, file.tempPath);
    let imageId: number | null;
    try {
      const imageType = claimedImageType(file.contentType, file.originalName);
      const probe = THUMBNAIL_ACCEPT_IMAGE_TYPES.has(imageType) ? await this.thumbnailer.probe(this.storage.path(pathId)) : null;
      imageId = await this.uow.run(async (tx) => {
        const quota = uploadQuotaBytes((await tx.realms.get(actor.realmId)).customUploadQuotaGb);
        if (quota !== null) {
          await tx.attachments.lockUsedSpace(actor.realmId);
          assertWithinUploadQuota(quota, await tx.attachments.usedSpace(actor.realmId), file.size);
        }
        const id = await tx.attachments.insert({
          realmId: actor.realmId,
          ownerId: actor.userId,
          pathId,
          name: file.originalName,
          size: file.size,
          contentType: file.contentType,
          createTime: this.clock.now(),
        });
        const [attachment] = await tx.attachments.byIds(actor.realmId, [id]);
        const used = await tx.attachments.usedSpace(actor.realmId);
        tx.afterCommit([attachmentEvent(actor.realmId, actor.userId, 'add', presentAttachment(attachment), used)]);
        return this.recordImage(tx, actor.realmId, id, pathId, imageType, probe);
      });
    } catch (err) {
      await this.storage.remove(pathId).catch(() => undefined);
      throw err;
    }
    if (imageId !== null) this.thumbnails.startSoon(imageId);
    return { url: `/user_uploads/${pathId}`, filename };
  }

  /**
   * Zulip's maybe_thumbnail: an upload claiming an image type whose header reads as an image is
   * recorded with its dimensions, to be thumbnailed (its id returned); a decompression bomb is
   * recorded as failed (never decoded, never previewed); anything else is no image.
   */
  private async recordImage(tx: Tx, realmId: number, attachmentId: number, pathId: string, contentType: string, probe: ImageProbe | null): Promise<number | null> {
    if (probe === null || probe.kind !== 'image') return null;
    const fits = imageWithinThumbnailLimits(probe.width, probe.height, probe.frames);
    const id = await tx.imageAttachments.insert({
      realmId,
      attachmentId,
      pathId,
      width: probe.width,
      height: probe.height,
      frames: probe.frames,
      contentType,
      failure: fits ? null : imageTooLarge().message,
    });
    return fits ? id : null;
  }

  /** GET /attachments: the caller's uploads and the organization's used upload space. */
  async listAttachments(actor: Actor): Promise<{ attachments: AttachmentRecord[]; uploadSpaceUsed: number }> {
    return this.uow.run(async (tx) => ({
      attachments: await tx.attachments.ofOwner(actor.realmId, actor.userId),
      uploadSpaceUsed: await tx.attachments.usedSpace(actor.realmId),
    }));
  }

  /**
   * DELETE /attachments/{id}: only the uploader's own (anyone else's, or an unknown id, is
   * Zulip's "Invalid attachment"). The stored file is deleted once the row is gone for good.
   */
  async deleteAttachment(actor: Actor, attachmentId: number): Promise<void> {
    const pathId = await this.uow.run(async (tx) => {
      const attachment = await tx.attachments.lockOwned(actor.realmId, actor.userId, attachmentId);
      if (attachment === null) throw badRequest('Invalid attachment');
      await tx.attachments.remove(actor.realmId, attachment.id);
      const used = await tx.attachments.usedSpace(actor.realmId);
      tx.afterCommit([attachmentEvent(actor.realmId, actor.userId, 'remove', { id: attachment.id }, used)]);
      return attachment.pathId;
    });
    await this.storage.remove(pathId).catch(() => undefined);
    await this.storage.removeThumbnails(pathId).catch(() => undefined);
  }

  /** The file, if the caller uploaded it or can read a message that links it. */
  async download(actor: Actor, pathId: string): Promise<{ attachment: AttachmentRecord; file: string }> {
    return this.uow.run(async (tx) => {
      const attachment = await this.readable(tx, actor, pathId);
      return { attachment, file: this.storage.path(attachment.pathId) };
    });
  }

  /** The organization's upload, if the caller may read it (Zulip's validate_attachment_request). */
  private async readable(tx: Tx, actor: Actor, pathId: string): Promise<AttachmentRecord> {
    const attachment = await tx.attachments.byPath(actor.realmId, pathId);
    if (attachment === null) throw notFound();
    if ((await readableAttachments(tx, actor, [attachment])).length === 0) {
      throw new DomainError('You are not authorized to view this file.', 'FORBIDDEN', 'forbidden');
    }
    return attachment;
  }

  /**
   * GET /user_uploads/{realm_id}/{filename} (Zulip's serve_file_url_backend): for a caller who
   * may read the upload, a URL that serves it without credentials for UPLOAD_ACCESS_TOKEN_SECONDS.
   */
  async temporaryUrl(actor: Actor, pathId: string): Promise<string> {
    const attachment = await this.uow.run((tx) => this.readable(tx, actor, pathId));
    const token = await this.tokens.issue(attachment.pathId, this.clock.now());
    return `/user_uploads/temporary/${token}/${encodeURIComponent(attachment.pathId.split('/').pop()!)}`;
  }

  /**
   * GET /user_uploads/temporary/{token}/{filename} (Zulip's serve_file_unauthed_from_token): the
   * upload the token names, while it is valid, in the organization of the request's host.
   */
  async temporaryDownload(realmId: number, token: string, filename: string): Promise<{ attachment: AttachmentRecord; file: string }> {
    const pathId = await this.tokens.verify(token, this.clock.now());
    if (pathId === null) throw invalidToken();
    if (pathId.split('/').pop() !== filename) throw badRequest('Invalid filename');
    const attachment = await this.uow.run((tx) => tx.attachments.byPath(realmId, pathId));
    if (attachment === null) throw invalidToken();
    return { attachment, file: this.storage.path(attachment.pathId) };
  }

  /**
   * GET /user_uploads/thumbnail/{realm_id}/{filename}/{format} (Zulip's serve_file with a
   * thumbnail format): with the original's access rules, the thumbnail of that format (made now
   * when it is one of the server's formats not made yet), or the closest one made.
   */
  async thumbnail(actor: Actor, pathId: string, formatName: string, accept: string | undefined): Promise<ServedThumbnail> {
    let image = await this.uow.run(async (tx) => {
      await this.readable(tx, actor, pathId);
      return tx.imageAttachments.byPath(actor.realmId, pathId);
    });
    if (image === null || image.status === 'failed') throw notFound();
    let served = thumbnailToServe(image, formatName, accept);
    if (served === 'missing') {
      await this.thumbnails.runNow(image.id);
      image = await this.uow.run((tx) => tx.imageAttachments.byPath(actor.realmId, pathId));
      served = image === null || image.status === 'failed' ? null : thumbnailToServe(image, formatName, accept);
    }
    if (served === null || served === 'missing') throw notFound();
    return { file: this.storage.path(thumbnailPath(pathId, served)), thumbnail: served, name: thumbnailFormatName(served) };
  }
}
