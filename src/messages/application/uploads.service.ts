import { randomBytes } from 'node:crypto';
import { assertOneUploadWithinLimit, assertWithinUploadQuota, uploadQuotaBytes, type UploadOverflow } from '@app/domain/messages';
import { badRequest, DomainError } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { readableAttachments } from './attachment-access.js';
import { attachmentEvent, presentAttachment } from './attachments.views.js';
import { type AttachmentRecord, FileStorage } from './message.ports.js';

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

/** POST /user_uploads and GET /user_uploads/<path_id>. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly storage: FileStorage,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
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
    try {
      await this.uow.run(async (tx) => {
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
      });
    } catch (err) {
      await this.storage.remove(pathId).catch(() => undefined);
      throw err;
    }
    return { url: `/user_uploads/${pathId}`, filename };
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
  }

  /** The file, if the caller uploaded it or can read a message that links it. */
  async download(actor: Actor, pathId: string): Promise<{ attachment: AttachmentRecord; file: string }> {
    return this.uow.run(async (tx) => {
      const attachment = await tx.attachments.byPath(actor.realmId, pathId);
      if (attachment === null) throw notFound();
      if ((await readableAttachments(tx, actor, [attachment])).length === 0) {
        throw new DomainError('You are not authorized to view this file.', 'FORBIDDEN', 'forbidden');
      }
      return { attachment, file: this.storage.path(attachment.pathId) };
    });
  }
}
