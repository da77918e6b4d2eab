import {
  actionAudience,
  flagsToApi,
  framesToLoad,
  missingThumbnails,
  rewriteThumbnailedImage,
  type StoredThumbnail,
  thumbnailContentType,
  thumbnailPath,
  uploadPreviewOf,
} from '@app/domain/messages';
import { Injectable } from '@nestjs/common';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { LeasedJobRunner } from '../../shared/application/leased-job-runner.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { renderingUpdatedEvent } from './message.events.js';
import { FileStorage } from './message.ports.js';
import { type ClaimedImage, type ImageMessage, ImageThumbnailer, type ThumbnailOutcome, ThumbnailQueue } from './thumbnail.ports.js';

/** How long a claim lasts: a worker still at it after this is taken to have died. */
export const THUMBNAIL_LEASE_MS = 60_000;
/** Claims an image gets (each ended by its worker dying) before it is failed instead of tried again. */
export const THUMBNAIL_MAX_ATTEMPTS = 3;

/**
 * Makes the thumbnails of uploaded images (Zulip's ThumbnailWorker and ensure_thumbnails), in
 * the background of every server process. An image is claimed with a lease (so exactly one
 * process works on it; one that dies leaves a lease that runs out, and the image is claimed
 * again, at most THUMBNAIL_MAX_ATTEMPTS times), thumbnailed outside any transaction, one image
 * at a time per process, then recorded in one transaction that also re-renders every message
 * linking the image (placeholder → thumbnail; a corrupt image loses its preview) and sends each
 * an `update_message` event with `rendering_only`. A corrupt image or a decompression bomb only
 * fails its own row.
 */
@Injectable()
export class ThumbnailRunner extends LeasedJobRunner<ClaimedImage> {
  /** Image work of this process, one at a time (libvips spreads each over the cores already). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    queue: ThumbnailQueue,
    private readonly uow: UnitOfWork,
    private readonly thumbnailer: ImageThumbnailer,
    private readonly storage: FileStorage,
    clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {
    super(queue, clock, THUMBNAIL_LEASE_MS, logger, 'thumbnailing failed');
  }

  /** Right after an upload committed: thumbnails it in the background of this process (unless thumbnailing is off). */
  startSoon(imageId: number): void {
    if (this.config.thumbnailPollIntervalMs <= 0) return;
    void this.runOne(imageId);
  }

  /** Thumbnails this image now, if no other worker holds it (the thumbnail route, for a format not made yet). */
  runNow(imageId: number): Promise<void> {
    return this.runOne(imageId);
  }

  protected attempt(job: ClaimedImage): Promise<void> {
    const work = this.turn.then(() => this.thumbnail(job));
    this.turn = work.catch(() => undefined);
    return work;
  }

  private async thumbnail(job: ClaimedImage): Promise<void> {
    if (job.attempts > THUMBNAIL_MAX_ATTEMPTS) {
      this.logger.error({ imageId: job.id, attempts: job.attempts }, 'thumbnailing given up: its workers kept stopping');
      await this.finish(job, { status: 'failed', error: 'interrupted too many times' });
      return;
    }
    const file = this.storage.path(job.pathId);
    const made: StoredThumbnail[] = [];
    try {
      for (const format of missingThumbnails(job)) {
        const out = await this.thumbnailer.thumbnail(file, format, framesToLoad(job, format));
        await this.storage.write(thumbnailPath(job.pathId, format), out.data);
        made.push({ ...format, contentType: thumbnailContentType(format.extension), width: out.width, height: out.height, byteSize: out.data.length });
      }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.logger.warn({ imageId: job.id, pathId: job.pathId, error }, 'could not thumbnail an uploaded image');
      if (made.length === 0 && job.thumbnails.length === 0) {
        // It most likely has bad data: no preview for it at all (Zulip deletes its ImageAttachment).
        await this.finish(job, { status: 'failed', error });
        await this.storage.removeThumbnails(job.pathId).catch(() => undefined);
        return;
      }
    }
    await this.finish(job, { status: 'done', thumbnails: [...job.thumbnails, ...made] });
  }

  /**
   * Records the outcome and re-renders the image's messages (Zulip's
   * update_message_rendered_content). Lock order: the messages, then the image; then the
   * messages again, which now include those whose sending (which read the image FOR KEY SHARE)
   * committed while this waited for the image.
   */
  private finish(job: ClaimedImage, outcome: ThumbnailOutcome): Promise<boolean> {
    return this.uow.run(async (tx) => {
      await tx.imageAttachments.lockMessagesOf(job.attachmentId);
      if (!(await tx.imageAttachments.finish(job.id, job.leaseToken, outcome))) return false;
      const preview = outcome.status === 'done' ? uploadPreviewOf({ ...job, thumbnails: outcome.thumbnails }) : null;
      const updates = (await tx.imageAttachments.lockMessagesOf(job.attachmentId)).flatMap((m) => {
        const rendered = rewriteThumbnailedImage(m.renderedContent, job.pathId, preview);
        return rendered === null ? [] : [{ ...m, renderedContent: rendered }];
      });
      await tx.imageAttachments.updateRenderings(updates);
      tx.afterCommit(await this.renderingEvents(tx, job.realmId, updates));
      return true;
    });
  }

  /** Each re-rendered message's event, to its readers who may still see it (Zulip's event_recipient_ids_for_action_on_messages). */
  private async renderingEvents(tx: Tx, realmId: number, messages: readonly ImageMessage[]): Promise<ClientEvent[]> {
    const readers = await tx.imageAttachments.readersOf(messages.map((m) => m.id));
    const now = this.clock.now();
    return messages.map((m) => {
      const mine = readers.filter((r) => r.messageId === m.id);
      const audience = new Set(actionAudience(m.channel, mine.map((r) => ({ ...r, hasRow: true }))));
      const flags = new Map(mine.filter((r) => audience.has(r.userId)).map((r) => [r.userId, flagsToApi(r.flags)]));
      return renderingUpdatedEvent(realmId, m, now, flags);
    });
  }
}
