import { DataSource } from 'typeorm';
import { ThumbnailQueue, UploadAccessTokens } from '../../../src/messages/application/thumbnail.ports.js';
import { TypeOrmImageAttachmentRepository, TypeOrmThumbnailQueue } from '../../../src/messages/persistence/typeorm-image-attachment.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { TestApp } from '../../support/test-app.js';
import { channelWith, realmOf } from './fixtures.js';

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

describe('the image_attachments rows and the messages showing them (TypeOrmImageAttachmentRepository)', () => {
  it('is the repository of the unit of work, and the queue of the app', async () => {
    expect(await uow.run(async (tx) => tx.imageAttachments)).toBeInstanceOf(TypeOrmImageAttachmentRepository);
    expect(queue).toBeInstanceOf(TypeOrmThumbnailQueue);
  });

  it('records an image that cannot be decoded as failed, with the reason', async () => {
    const pathId = `${realmId}/ff/broken.png`;
    const [{ id: attachmentId }] = await ds.query(
      `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time) VALUES ($1, $2, $3, 'b.png', 10, 'image/png', now()) RETURNING id`,
      [realmId, t.owner.id, pathId],
    );
    const id = await uow.run((tx) =>
      tx.imageAttachments.insert({ realmId, attachmentId, pathId, width: 0, height: 0, frames: 1, contentType: 'image/png', failure: 'not an image' }),
    );
    expect(await ds.query(`SELECT status, last_error, attempts, lease_token FROM image_attachments WHERE id = $1`, [id])).toEqual([
      { status: 'failed', last_error: 'not an image', attempts: 0, lease_token: null },
    ]);
    expect(await queue.claimNext({ ...lease(), id })).toBeNull();
  });

  it('maps a previewable image whole, with its thumbnails, in its organization only', async () => {
    const { id, pathId } = await pendingImage();
    const { pathId: other } = await pendingImage();
    const job = await queue.claimNext({ ...lease(), id });
    const thumbnail = { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: true, contentType: 'image/webp', width: 10, height: 5, byteSize: 42 };
    await uow.run((tx) => tx.imageAttachments.finish(id, job!.leaseToken, { status: 'done', thumbnails: [thumbnail] }));
    const [{ attachment_id: attachmentId }] = await ds.query(`SELECT attachment_id FROM image_attachments WHERE id = $1`, [id]);
    const record = { id, realmId, attachmentId, pathId, originalWidth: 10, originalHeight: 5, frames: 1, contentType: 'image/png', thumbnails: [thumbnail], status: 'done' };
    expect(await uow.run((tx) => tx.imageAttachments.previewable(realmId, [pathId, other]))).toEqual([
      record,
      expect.objectContaining({ pathId: other, status: 'pending', thumbnails: [] }),
    ]);
    expect(await uow.run((tx) => tx.imageAttachments.byPath(realmId, pathId))).toEqual(record);
    const otherRealm = await realmOf(ds, (await t.createOrganization('imageother')).id);
    expect(await uow.run((tx) => tx.imageAttachments.previewable(otherRealm, [pathId]))).toEqual([]);
    expect(await uow.run((tx) => tx.imageAttachments.previewable(realmId, []))).toEqual([]);
  });

  it('locks the messages showing an image, re-renders them, and lists their readers', async () => {
    const member = await t.createUser();
    const guest = await t.createUser({ role: 600 });
    const channelId = await channelWith(t, 'pictures', [member, guest], { inviteOnly: true });
    const inChannel = await sendToChannel(t, t.owner, 'pictures', 'pics', 'look');
    const direct = await sendDirect(t, t.owner, [member.id], 'look too');
    await ds.query(`UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = $2`, [guest.id, channelId]);
    const { id } = await pendingImage();
    const [{ attachment_id: attachmentId }] = await ds.query(`SELECT attachment_id FROM image_attachments WHERE id = $1`, [id]);
    await ds.query(`INSERT INTO attachment_messages (attachment_id, message_id) VALUES ($1, $2), ($1, $3)`, [attachmentId, direct, inChannel]);

    await uow.run(async (tx) => {
      expect(await tx.imageAttachments.lockMessagesOf(attachmentId)).toEqual([
        { id: inChannel, content: 'look', renderedContent: '<p>look</p>', channel: { inviteOnly: true, historyPublicToSubscribers: expect.any(Boolean) } },
        { id: direct, content: 'look too', renderedContent: '<p>look too</p>', channel: null },
      ]);
      await expect(t.sql(`SELECT id FROM messages WHERE id = $1 FOR UPDATE NOWAIT`, [direct])).rejects.toMatchObject({ code: '55P03' });
      await tx.imageAttachments.updateRenderings([
        { id: inChannel, renderedContent: '<p>look <img></p>' },
        { id: direct, renderedContent: '<p>look too <img></p>' },
      ]);
      await tx.imageAttachments.updateRenderings([]);
    });
    expect(await ds.query(`SELECT id, rendered_content FROM messages WHERE id = ANY($1) ORDER BY id`, [[inChannel, direct]])).toEqual([
      { id: inChannel, rendered_content: '<p>look <img></p>' },
      { id: direct, rendered_content: '<p>look too <img></p>' },
    ]);

    const readers = await uow.run((tx) => tx.imageAttachments.readersOf([direct, inChannel]));
    const flags = async (messageId: number, userId: number) =>
      (await ds.query(`SELECT flags FROM user_messages WHERE message_id = $1 AND user_id = $2`, [messageId, userId]))[0].flags;
    expect(readers).toEqual(
      [
        { messageId: inChannel, userId: t.owner.id, flags: await flags(inChannel, t.owner.id), subscribed: true, isGuest: false },
        { messageId: inChannel, userId: member.id, flags: await flags(inChannel, member.id), subscribed: true, isGuest: false },
        { messageId: inChannel, userId: guest.id, flags: await flags(inChannel, guest.id), subscribed: false, isGuest: true },
        { messageId: direct, userId: t.owner.id, flags: await flags(direct, t.owner.id), subscribed: false, isGuest: false },
        { messageId: direct, userId: member.id, flags: await flags(direct, member.id), subscribed: false, isGuest: false },
      ].sort((a, b) => a.messageId - b.messageId || a.userId - b.userId),
    );
    expect(await uow.run((tx) => tx.imageAttachments.readersOf([]))).toEqual([]);
  });
});
