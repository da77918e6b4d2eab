import { existsSync } from 'node:fs';
import pg from 'pg';
import { join } from 'node:path';
import { ThumbnailRunner } from '../../../src/messages/application/thumbnail.runner.js';
import { ServerConfig } from '../../../src/shared/config/server-config.js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { animatedGif, bombPng, getBinary, imageInfo, rotatedJpeg, solidImage, truncatedPng } from '../../support/images.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { cookieHeader, sessionOf } from '../../support/sessions.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/*
 * Thumbnails of uploaded images, as Zulip makes them (zerver/lib/thumbnail.py,
 * zerver/worker/thumbnail.py, zerver/tests/test_thumbnail.py). The worker's background timer is
 * off here (THUMBNAIL_POLL_INTERVAL_MS=0) so that each test decides when thumbnailing happens
 * (ThumbnailRunner.runDue); the last describe runs it in the background, as in production.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let other: Account;
let runner: ThumbnailRunner;

beforeAll(async () => {
  t = await TestApp.start({ THUMBNAIL_POLL_INTERVAL_MS: '0' });
  runner = t.app.get(ThumbnailRunner);
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' });
  other = await t.createOrganization('elsewhere');
  await createChannels(t, ['pictures']);
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'pictures' }], principals: [alice.id, bob.id] } });
}, 60_000);
afterAll(() => t.close());

const upload = async (as: Account, name: string, body: Buffer, contentType: string) => {
  const res = await t.http.post('/api/v1/user_uploads').auth(as.email, as.apiKey).attach('file', body, { filename: name, contentType });
  expectSuccess(res);
  return { url: res.body.url as string, pathId: (res.body.url as string).replace('/user_uploads/', '') };
};
const imageRow = async (pathId: string) =>
  (await t.sql(`SELECT original_width_px, original_height_px, frames, content_type, status, thumbnail_metadata, last_error FROM image_attachments WHERE path_id = $1`, [pathId]))[0];
const rendered = async (as: Account, id: number) => (await t.get(`messages/${id}`, { as })).body.message.content as string;
const getThumbnail = (as: Account | null, url: string, accept?: string) => {
  let req = getBinary(t, url);
  if (as) req = req.auth(as.email, as.apiKey);
  if (as?.host) req = req.set('Host', as.host);
  if (accept) req = req.set('Accept', accept);
  return req;
};
const placeholder = (url: string, title: string, w: number, h: number) =>
  `<div class="message_inline_image"><a href="${url}" title="${title}"><img class="image-loading-placeholder" data-original-dimensions="${w}x${h}" src="/static/images/loading/loader-black.svg"></a></div>`;

describe('register', () => {
  it("lists Zulip's thumbnail formats as server_thumbnail_formats", async () => {
    const res = await t.post('register', { as: alice, form: { fetch_event_types: ['realm'] } });
    expectSuccess(res);
    expect(res.body.server_thumbnail_formats).toEqual([
      { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ]);
  });
});

describe('an uploaded image', () => {
  it('shows a placeholder with its dimensions, then its thumbnail, with a rendering-only update_message to the readers', async () => {
    const { url, pathId } = await upload(alice, 'sunset.png', await solidImage(1200, 900, 'png'), 'image/png');
    expect(await imageRow(pathId)).toEqual({
      original_width_px: 1200,
      original_height_px: 900,
      frames: 1,
      content_type: 'image/png',
      status: 'pending',
      thumbnail_metadata: [],
      last_error: null,
    });
    const bobEvents = await EventClient.register(t, bob, { event_types: ['update_message'] });
    const carolEvents = await EventClient.register(t, carol, { event_types: ['update_message'] });
    const content = `look: [sunset.png](${url})`;
    const id = await sendToChannel(t, alice, 'pictures', 'sky', content);
    const before = `<p>look: <a href="${url}">sunset.png</a></p>\n${placeholder(url, 'sunset.png', 1200, 900)}`;
    expect(await rendered(bob, id)).toBe(before);

    expect(await runner.runDue()).toBe(1);
    const thumb = `/user_uploads/thumbnail/${pathId}/840x560.webp`;
    const after =
      `<p>look: <a href="${url}">sunset.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="sunset.png">` +
      `<img data-original-content-type="image/png" data-original-dimensions="1200x900" src="${thumb}"></a></div>`;
    const [event] = await bobEvents.ofType('update_message');
    expect(event).toEqual({
      id: expect.any(Number),
      type: 'update_message',
      user_id: null,
      edit_timestamp: expect.any(Number),
      message_id: id,
      message_ids: [id],
      content,
      rendered_content: after,
      rendering_only: true,
      flags: [],
    });
    expect(await carolEvents.drain()).toEqual([]);
    expect(await rendered(bob, id)).toBe(after);
    // Not an edit: no edit time, no history.
    const fetched = (await t.get(`messages/${id}`, { as: bob })).body.message;
    expect(fetched.last_edit_timestamp).toBeUndefined();

    expect((await imageRow(pathId)).thumbnail_metadata).toEqual([
      { extension: 'webp', max_width: 840, max_height: 560, animated: false, content_type: 'image/webp', width: 747, height: 560, byte_size: expect.any(Number) },
    ]);
    const res = await getThumbnail(bob, thumb);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['content-disposition']).toBe("inline; filename*=UTF-8''840x560.webp");
    expect(await imageInfo(res.body as Buffer)).toEqual({ format: 'webp', width: 747, height: 560, pages: 1 });

    // A message sent once the thumbnail exists shows it at once.
    const later = await sendToChannel(t, bob, 'pictures', 'sky', `again [it](${url})`);
    expect(await rendered(alice, later)).toBe(
      `<p>again <a href="${url}">it</a></p>\n<div class="message_inline_image"><a href="${url}" title="it">` +
        `<img data-original-content-type="image/png" data-original-dimensions="1200x900" src="${thumb}"></a></div>`,
    );
    expect(await bobEvents.drain()).toEqual([]);
  });

  it('keeps a JPEG turned by its EXIF orientation as shown, and thumbnails it upright', async () => {
    const { url, pathId } = await upload(alice, 'portrait.jpg', await rotatedJpeg(600, 100), 'image/jpeg');
    expect(await imageRow(pathId)).toMatchObject({ original_width_px: 100, original_height_px: 600, frames: 1, content_type: 'image/jpeg' });
    const id = await sendDirect(t, alice, [bob.id], `[portrait.jpg](${url})`);
    expect(await rendered(bob, id)).toBe(`<p><a href="${url}">portrait.jpg</a></p>\n${placeholder(url, 'portrait.jpg', 100, 600)}`);
    await runner.runDue();
    expect((await imageRow(pathId)).thumbnail_metadata).toEqual([expect.objectContaining({ width: 93, height: 560 })]);
    const res = await getThumbnail(bob, `/user_uploads/thumbnail/${pathId}/840x560.webp`);
    expect(await imageInfo(res.body as Buffer)).toEqual({ format: 'webp', width: 93, height: 560, pages: 1 });
  });

  it('makes an animated GIF an animated thumbnail (and a still one), marked data-animated', async () => {
    const { url, pathId } = await upload(alice, 'blink.gif', await animatedGif(128, 56, 3), 'image/gif');
    expect(await imageRow(pathId)).toMatchObject({ original_width_px: 128, original_height_px: 56, frames: 3 });
    const events = await EventClient.register(t, bob, { event_types: ['update_message'] });
    const id = await sendDirect(t, alice, [bob.id], `[blink.gif](${url})`);
    expect(await rendered(bob, id)).toBe(`<p><a href="${url}">blink.gif</a></p>\n${placeholder(url, 'blink.gif', 128, 56)}`);
    await runner.runDue();
    const anim = `/user_uploads/thumbnail/${pathId}/840x560-anim.webp`;
    const final =
      `<p><a href="${url}">blink.gif</a></p>\n<div class="message_inline_image"><a href="${url}" title="blink.gif">` +
      `<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="128x56" src="${anim}"></a></div>`;
    expect((await events.ofType('update_message'))[0]).toMatchObject({ message_ids: [id], rendered_content: final, rendering_only: true, flags: [] });
    expect(await rendered(alice, id)).toBe(final);
    const animated = await getThumbnail(bob, anim);
    expect(animated.status).toBe(200);
    expect(await imageInfo(animated.body as Buffer)).toEqual({ format: 'webp', width: 128, height: 56, pages: 3 });
    const still = await getThumbnail(bob, `/user_uploads/thumbnail/${pathId}/840x560.webp`);
    expect(await imageInfo(still.body as Buffer)).toEqual({ format: 'webp', width: 128, height: 56, pages: 1 });
  });

  it('re-renders every message linking the image, each to its own readers, after an edit added it too', async () => {
    const { url, pathId } = await upload(alice, 'shared.png', await solidImage(300, 200, 'png'), 'image/png');
    const inChannel = await sendToChannel(t, alice, 'pictures', 'both', `[shared.png](${url})`);
    const edited = await sendDirect(t, alice, [carol.id], 'soon');
    expectSuccess(await t.patch(`messages/${edited}`, { as: alice, form: { content: `now [shared.png](${url})` } }));
    expect(await rendered(carol, edited)).toBe(`<p>now <a href="${url}">shared.png</a></p>\n${placeholder(url, 'shared.png', 300, 200)}`);
    const bobEvents = await EventClient.register(t, bob, { event_types: ['update_message'] });
    const carolEvents = await EventClient.register(t, carol, { event_types: ['update_message'] });
    await runner.runDue();
    expect((await bobEvents.ofType('update_message')).map((e) => e.message_id)).toEqual([inChannel]);
    expect((await carolEvents.ofType('update_message')).map((e) => e.message_id)).toEqual([edited]);
    expect(await rendered(carol, edited)).toContain(`src="/user_uploads/thumbnail/${pathId}/840x560.webp"`);
  });

  it('re-renders a message sent while its image was being recorded (the worker waits for the sending transaction)', async () => {
    const { url, pathId } = await upload(alice, 'race.png', await solidImage(80, 60, 'png'), 'image/png');
    // Another transaction reads the image as a rendering does (FOR KEY SHARE) and stays open.
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query(`SELECT id FROM image_attachments WHERE path_id = $1 FOR KEY SHARE`, [pathId]);
      const run = runner.runDue();
      // The worker made the thumbnail and now waits to record it.
      let waiting = false;
      for (let i = 0; i < 200 && !waiting; i++) {
        await db.query('SELECT pg_stat_clear_snapshot()'); // statistics views are otherwise read once per transaction
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%WITH held AS%'`);
        waiting = rows[0].n > 0;
        if (!waiting) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waiting).toBe(true);
      const sent = sendDirect(t, alice, [bob.id], `[race.png](${url})`);
      await new Promise((r) => setTimeout(r, 200));
      await db.query('COMMIT');
      const id = await sent;
      expect(await run).toBe(1);
      expect(await rendered(bob, id)).toContain(`src="/user_uploads/thumbnail/${pathId}/840x560.webp"`);
    } finally {
      await db.end();
    }
  });

  it('refuses a decompression bomb by its header: recorded as failed, never decoded, no preview', async () => {
    const bomb = bombPng(20_000);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await imageInfo(bomb)).toMatchObject({ format: 'png', width: 20_000, height: 20_000 });
    const { url, pathId } = await upload(alice, 'bomb.png', bomb, 'image/png');
    expect(await imageRow(pathId)).toMatchObject({ original_width_px: 20_000, original_height_px: 20_000, status: 'failed', last_error: 'Image size exceeds limit.' });
    const id = await sendDirect(t, alice, [bob.id], `[bomb.png](${url})`);
    expect(await rendered(bob, id)).toBe(`<p><a href="${url}">bomb.png</a></p>`);
    expect(await runner.runDue()).toBe(0);
    const res = await t.http.get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).auth(bob.email, bob.apiKey);
    expectError(res, 404, 'File not found', 'NOT_FOUND');
    // The original is still served as uploaded.
    expect((await t.http.get(url).auth(bob.email, bob.apiKey)).status).toBe(200);
  });

  it('fails a corrupt image without harm: its previews go, with an update_message, and the server carries on', async () => {
    const { url, pathId } = await upload(alice, 'broken.png', await truncatedPng(), 'image/png');
    expect(await imageRow(pathId)).toMatchObject({ original_width_px: 300, original_height_px: 200, status: 'pending' });
    const events = await EventClient.register(t, bob, { event_types: ['update_message'] });
    const id = await sendDirect(t, alice, [bob.id], `see [broken.png](${url})`);
    expect(await rendered(bob, id)).toBe(`<p>see <a href="${url}">broken.png</a></p>\n${placeholder(url, 'broken.png', 300, 200)}`);
    expect(await runner.runDue()).toBe(1);
    expect(await imageRow(pathId)).toMatchObject({ status: 'failed', thumbnail_metadata: [], last_error: expect.stringMatching(/png|read|truncat/i) });
    const [event] = await events.ofType('update_message');
    expect(event).toMatchObject({ message_ids: [id], rendered_content: `<p>see <a href="${url}">broken.png</a></p>`, rendering_only: true });
    expect(await rendered(bob, id)).toBe(`<p>see <a href="${url}">broken.png</a></p>`);
    expectError(await t.http.get(`/user_uploads/thumbnail/${pathId}/840x560.webp`).auth(bob.email, bob.apiKey), 404, 'File not found', 'NOT_FOUND');
    expect(existsSync(join(t.app.get(ServerConfig).uploadsDir, 'thumbnail', pathId))).toBe(false);
    // Nothing else is disturbed: the next image is thumbnailed as usual.
    const next = await upload(alice, 'fine.png', await solidImage(40, 30, 'png'), 'image/png');
    await runner.runDue();
    expect(await imageRow(next.pathId)).toMatchObject({ status: 'done' });
  });

  it('previews only images: other uploads, and images claimed as another type, keep their plain link', async () => {
    const text = await upload(alice, 'notes.png', Buffer.from('not an image at all'), 'image/png');
    const claimedText = await upload(alice, 'pixel.png', await solidImage(10, 10, 'png'), 'text/plain');
    expect(await imageRow(text.pathId)).toBeUndefined();
    expect(await imageRow(claimedText.pathId)).toBeUndefined();
    const id = await sendDirect(t, alice, [bob.id], `[a](${text.url}) [b](${claimedText.url})`);
    expect(await rendered(bob, id)).toBe(`<p><a href="${text.url}">a</a> <a href="${claimedText.url}">b</a></p>`);
  });
});

describe('GET /user_uploads/thumbnail/{realm_id}/{path}/{format}', () => {
  let url: string;
  let pathId: string;
  beforeAll(async () => {
    ({ url, pathId } = await upload(alice, 'dm-only.png', await solidImage(200, 100, 'png'), 'image/png'));
    await sendDirect(t, alice, [bob.id], `[dm-only.png](${url})`);
  });
  const path = (format: string) => `/user_uploads/thumbnail/${pathId}/${format}`;

  it('makes a format of the server not made yet on demand, for a reader', async () => {
    expect((await imageRow(pathId)).status).toBe('pending');
    const res = await getThumbnail(bob, path('840x560.webp'));
    expect(res.status).toBe(200);
    expect(await imageInfo(res.body as Buffer)).toEqual({ format: 'webp', width: 200, height: 100, pages: 1 });
    expect((await imageRow(pathId)).status).toBe('done');
  });

  it('is served to the web app with its session cookie alone, as images in messages are', async () => {
    const session = (await sessionOf(t, bob))!;
    const res = await t.http.get(path('840x560.webp')).set('Cookie', cookieHeader(session));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
  });

  it('has the access rules of the original', async () => {
    expectError(await t.http.get(path('840x560.webp')).auth(carol.email, carol.apiKey), 403, 'You are not authorized to view this file.', 'FORBIDDEN');
    expectError(await t.http.get(path('840x560.webp')), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    // Another organization's user: as a file that does not exist.
    expectError(await t.http.get(path('840x560.webp')).auth(other.email, other.apiKey).set('Host', other.host!), 404, 'File not found', 'NOT_FOUND');
    expectError(await t.http.get(path('840x560.webp').replace(/\/[^/]+\/([^/]+\/840x560\.webp)$/, '/AAAAAAAAAAAAAAAAAAAAAAAA/$1')).auth(alice.email, alice.apiKey), 404, 'File not found', 'NOT_FOUND');
  });

  it('answers an unknown format with 404, and a format it does not make with the closest one made', async () => {
    for (const bad of ['bogus', '840x560.webp.png', 'x840x560.webp', '840x560.', '0x0']) {
      expectError(await t.http.get(path(bad)).auth(bob.email, bob.apiKey), 404, 'File not found', 'NOT_FOUND');
    }
    const closest = await getThumbnail(bob, path('100x75.jpg'), 'image/webp,*/*;q=0.8');
    expect(closest.status).toBe(200);
    expect(closest.headers['content-type']).toBe('image/webp');
    expect(closest.headers['content-disposition']).toBe("inline; filename*=UTF-8''840x560.webp");
    // An animated format of a still image: the still one (Zulip's "closest we rendered").
    const still = await getThumbnail(bob, path('840x560-anim.webp'));
    expect(still.status).toBe(200);
    expect(still.headers['content-disposition']).toBe("inline; filename*=UTF-8''840x560.webp");
  });

  it('serves no thumbnail of an upload that is no image', async () => {
    const text = await upload(alice, 'plain.txt', Buffer.from('hello'), 'text/plain');
    expectError(await t.http.get(`/user_uploads/thumbnail/${text.pathId}/840x560.webp`).auth(alice.email, alice.apiKey), 404, 'File not found', 'NOT_FOUND');
  });

  it('is gone with its attachment', async () => {
    const img = await upload(alice, 'gone.png', await solidImage(20, 20, 'png'), 'image/png');
    await runner.runDue();
    const dir = join(t.app.get(ServerConfig).uploadsDir, 'thumbnail', img.pathId);
    expect(existsSync(join(dir, '840x560.webp'))).toBe(true);
    const [{ id }] = await t.sql(`SELECT id FROM attachments WHERE path_id = $1`, [img.pathId]);
    expectSuccess(await t.delete(`attachments/${id}`, { as: alice }));
    expect(await imageRow(img.pathId)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });
});

describe('in the background', () => {
  let bg: TestApp;
  beforeAll(async () => {
    bg = await TestApp.start({ THUMBNAIL_POLL_INTERVAL_MS: '10000' });
  }, 60_000);
  afterAll(() => bg.close());

  it('thumbnails an image right after its upload, and one left pending by a restart on the next pass', async () => {
    const png = await solidImage(64, 48, 'png');
    const res = await bg.http.post('/api/v1/user_uploads').auth(bg.owner.email, bg.owner.apiKey).attach('file', png, { filename: 'quick.png', contentType: 'image/png' });
    expectSuccess(res);
    await bg.app.get(ThumbnailRunner).idle();
    const [row] = await bg.sql(`SELECT status, thumbnail_metadata FROM image_attachments WHERE path_id = $1`, [res.body.url.replace('/user_uploads/', '')]);
    expect(row).toEqual({ status: 'done', thumbnail_metadata: [expect.objectContaining({ width: 64, height: 48 })] });

    // A row some process claimed and never finished (it died): claimed again once its lease ran out.
    await bg.sql(`UPDATE image_attachments SET status = 'pending', thumbnail_metadata = '[]', lease_until = now() - interval '1 minute', attempts = 1`);
    expect(await bg.app.get(ThumbnailRunner).runDue()).toBe(1);
    expect((await bg.sql(`SELECT status FROM image_attachments`))[0].status).toBe('done');
  });
});
