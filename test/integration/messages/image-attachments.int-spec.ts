import { DataSource } from 'typeorm';
import { ThumbnailQueue, UploadAccessTokens } from '../../../src/messages/application/thumbnail.ports.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TestApp } from '../../support/test-app.js';

/*
 * The image_attachments rows as the thumbnail queue (TypeOrmThumbnailQueue) and the
 * repository (TypeOrmImageAttachmentRepository) use them, and the temporary URL tokens
 * (HmacUploadAccessTokens), against PostgreSQL.
 */

let t: TestApp;
let ds: DataSource;
let uow: UnitOfWork;
let queue: ThumbnailQueue;
let realmId: number;
let n = 0;

beforeAll(async () => {
  t = await TestApp.start({ THUMBNAIL_POLL_INTERVAL_MS: '0' });
  ds = t.app.get(DataSource);
  uow = t.app.get(UnitOfWork);
  queue = t.app.get(ThumbnailQueue);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
});
afterAll(() => t.close());

/** A pending image of a new attachment of the owner's; its id and path. */
async function pendingImage(): Promise<{ id: number; pathId: string }> {
  n += 1;
  const pathId = `${realmId}/ab/${'A'.repeat(23)}${n % 10}/image${n}.png`;
  const [{ id: attachmentId }] = await ds.query(
    `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time) VALUES ($1, $2, $3, 'i.png', 10, 'image/png', now()) RETURNING id`,
    [realmId, t.owner.id, pathId],
  );
  const id = await uow.run((tx) =>
    tx.imageAttachments.insert({ realmId, attachmentId, pathId, width: 10, height: 5, frames: 1, contentType: 'image/png', failure: null }),
  );
  return { id, pathId };
}
const lease = (now = new Date()) => ({ now, leaseUntil: new Date(now.getTime() + 60_000) });

describe('the thumbnail queue', () => {
  it('gives each pending image to one claim at a time, again once its lease ran out, and records only under the current lease', async () => {
    const { id } = await pendingImage();
    const first = await queue.claimNext({ ...lease(), id });
    expect(first).toMatchObject({ id, attempts: 1, status: 'pending', originalWidth: 10, originalHeight: 5, thumbnails: [] });
    expect(await queue.claimNext({ ...lease(), id })).toBeNull();
    const later = new Date(Date.now() + 61_000);
    const second = await queue.claimNext({ ...lease(later), id });
    expect(second).toMatchObject({ id, attempts: 2 });
    // The first claim lost its lease: what it found is not recorded.
    const thumbnail = { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: false, contentType: 'image/webp', width: 10, height: 5, byteSize: 99 };
    expect(await uow.run((tx) => tx.imageAttachments.finish(id, first!.leaseToken, { status: 'done', thumbnails: [thumbnail] }))).toBe(false);
    expect(await uow.run((tx) => tx.imageAttachments.finish(id, second!.leaseToken, { status: 'done', thumbnails: [thumbnail] }))).toBe(true);
    const [row] = await ds.query(`SELECT status, thumbnail_metadata, lease_token FROM image_attachments WHERE id = $1`, [id]);
    expect(row).toEqual({
      status: 'done',
      thumbnail_metadata: [{ extension: 'webp', max_width: 840, max_height: 560, animated: false, content_type: 'image/webp', width: 10, height: 5, byte_size: 99 }],
      lease_token: null,
    });
    expect(await queue.claimNext({ ...lease(later), id })).toBeNull();
  });

  it('claims an image a rendering is reading, but records it only once that rendering committed', async () => {
    const { id, pathId } = await pendingImage();
    const reader = ds.createQueryRunner();
    await reader.connect();
    try {
      await reader.startTransaction();
      await reader.query(`SELECT id FROM image_attachments WHERE realm_id = $1 AND path_id = ANY($2::text[]) FOR KEY SHARE`, [realmId, [pathId]]);
      const job = await queue.claimNext({ ...lease(), id });
      expect(job).not.toBeNull();
      let recorded = false;
      const finishing = uow.run((tx) => tx.imageAttachments.finish(id, job!.leaseToken, { status: 'failed', error: 'x' })).then((r) => (recorded = r));
      await new Promise((r) => setTimeout(r, 300));
      expect(recorded).toBe(false);
      await reader.commitTransaction();
      expect(await finishing).toBe(true);
    } finally {
      await reader.release();
    }
  });

  it('leaves out failed images from previews', async () => {
    const { id, pathId } = await pendingImage();
    const job = await queue.claimNext({ ...lease(), id });
    await uow.run((tx) => tx.imageAttachments.finish(id, job!.leaseToken, { status: 'failed', error: 'broken' }));
    expect(await uow.run((tx) => tx.imageAttachments.previewable(realmId, [pathId]))).toEqual([]);
    expect(await uow.run((tx) => tx.imageAttachments.byPath(realmId, pathId))).toMatchObject({ status: 'failed' });
    expect(await uow.run((tx) => tx.imageAttachments.byPath(realmId + 1000, pathId))).toBeNull();
  });
});

describe('temporary URL tokens', () => {
  it('name their upload for 60 seconds, and nothing once altered', async () => {
    const tokens = t.app.get(UploadAccessTokens);
    const now = new Date();
    const token = await tokens.issue('1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/a.pdf', now);
    expect(await tokens.verify(token, new Date(now.getTime() + 60_000))).toBe('1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/a.pdf');
    expect(await tokens.verify(token, new Date(now.getTime() + 61_000))).toBeNull();
    const flipped = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    expect(await tokens.verify(flipped, now)).toBeNull();
  });
});
