import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { EventClient } from '../../support/events.js';
import { getBinary } from '../../support/images.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * The organization's icon and logos (Zulip's POST/DELETE/GET /realm/icon and /realm/logo,
 * do_change_icon_source, do_change_logo_source) and register's realm_icon_* / realm_*logo_*.
 */

let t: TestApp;
let admin: Account;
let member: Account;
let otherOwner: Account;
let realmId: number;
let png: Buffer;
let wide: Buffer;

const ADMIN_ONLY = ['Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'] as const;
const identicon = (stringId: string) => `https://secure.gravatar.com/avatar/${createHash('md5').update(stringId).digest('hex')}?d=identicon`;
const realmRow = async (id = realmId) =>
  (await t.sql(`SELECT icon_source, icon_version, logo_source, logo_version, night_logo_source, night_logo_version FROM realms WHERE id = $1`, [id]))[0];

type Part = { field?: string; body: Buffer; name: string; type?: string };
function upload(path: 'icon' | 'logo', as: Account, parts: Part[], fields: Record<string, string> = {}) {
  let req = t.http.post(`/api/v1/realm/${path}`).auth(as.email, as.apiKey);
  if (as.host) req = req.set('Host', as.host);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  for (const [i, p] of parts.entries()) req = req.attach(p.field ?? `f${i + 1}`, p.body, { filename: p.name, contentType: p.type ?? 'image/png' });
  if (parts.length === 0 && Object.keys(fields).length === 0) req = req.field('x', '1');
  return t.checkedAgainstDocument('post', req);
}
const fetchFile = (url: string) => getBinary(t, url);
const dimensions = async (res: Response) => {
  const m = await sharp(res.body as Buffer).metadata();
  return { format: m.format, width: m.width, height: m.height };
};

beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, otherOwner } = await t.createRoleAccounts());
  realmId = (await t.sql(`SELECT realm_id FROM users WHERE id = $1`, [member.id]))[0].realm_id;
  png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#3366ff80' } }).png().toBuffer();
  wide = await sharp({ create: { width: 2000, height: 100, channels: 3, background: '#112233' } }).jpeg().toBuffer();
});
afterAll(async () => {
  await t.close();
});

/** A refused request: exactly this error, the organization's images unchanged, no event. */
async function expectRefused(request: () => PromiseLike<Response>, msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) {
  const before = await realmRow();
  const queue = await EventClient.register(t, member, { event_types: ['realm'] });
  expectError(await request(), 400, msg, code, extra);
  expect(await realmRow()).toEqual(before);
  expect(await queue.drain()).toEqual([]);
}

describe('the organization icon', () => {
  it('starts as the identicon of the organization, in register and server_settings', async () => {
    const stringId = (await t.sql(`SELECT string_id FROM realms WHERE id = $1`, [realmId]))[0].string_id;
    const state = (await EventClient.register(t, member, { fetch_event_types: ['realm'] })).state;
    expect(state).toMatchObject({
      realm_icon_url: identicon(stringId),
      realm_icon_source: 'G',
      realm_logo_url: '',
      realm_logo_source: 'D',
      realm_night_logo_url: '',
      realm_night_logo_source: 'D',
    });
    expect((await t.get('server_settings', { as: null })).body.realm_icon).toBe(identicon(stringId));
  });

  it('POST /realm/icon stores a 100×100 PNG, answers its URL and tells everyone', async () => {
    const queues = [await EventClient.register(t, member), await EventClient.register(t, admin, { event_types: ['realm'] })];
    const res = await upload('icon', admin, [{ body: png, name: 'icon.png' }]);
    const url = `/user_avatars/${realmId}/realm/icon.png?version=2`;
    expectSuccess(res, { icon_url: url });
    expect((await realmRow()).icon_source).toBe('U');
    const file = await fetchFile(url);
    expect(file.headers['content-type']).toBe('image/png');
    expect(await dimensions(file)).toEqual({ format: 'png', width: 100, height: 100 });
    for (const q of queues) {
      const events = await q.ofType('realm');
      expect(events.map(({ id: _, ...e }) => e)).toEqual([{ type: 'realm', op: 'update_dict', property: 'icon', data: { icon_source: 'U', icon_url: url } }]);
    }
    const state = (await EventClient.register(t, member)).state;
    expect(state).toMatchObject({ realm_icon_url: url, realm_icon_source: 'U' });
    expect((await t.get('server_settings', { as: null })).body.realm_icon).toBe(`http://chat.example.com${url}`);
  });

  it('GET /realm/icon redirects to it, for any user', async () => {
    const res = await t.get('realm/icon', { as: member, query: { foo: 'bar' } }).redirects(0);
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: `/user_avatars/${realmId}/realm/icon.png?version=2&foo=bar` });
  });

  it('DELETE /realm/icon goes back to the identicon', async () => {
    const stringId = (await t.sql(`SELECT string_id FROM realms WHERE id = $1`, [realmId]))[0].string_id;
    const queue = await EventClient.register(t, member, { event_types: ['realm'] });
    expectSuccess(await t.delete('realm/icon', { as: admin }), { icon_url: identicon(stringId) });
    expect(await realmRow()).toMatchObject({ icon_source: 'G', icon_version: 3 });
    const [event] = await queue.ofType('realm');
    expect(event).toMatchObject({ type: 'realm', op: 'update_dict', property: 'icon', data: { icon_source: 'G', icon_url: identicon(stringId) } });
    const res = await t.get('realm/icon', { as: member }).redirects(0);
    expect(res.headers.location).toBe(identicon(stringId));
  });

  it('is for administrators, and refuses what is not exactly one acceptable image', async () => {
    await expectRefused(() => upload('icon', member, [{ body: png, name: 'icon.png' }]), ...ADMIN_ONLY);
    await expectRefused(() => t.delete('realm/icon', { as: member }), ...ADMIN_ONLY);
    await expectRefused(() => upload('icon', admin, []), 'You must upload exactly one icon.');
    await expectRefused(() => upload('icon', admin, [{ body: png, name: 'a.png' }, { body: png, name: 'b.png' }]), 'You must upload exactly one icon.');
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    await expectRefused(() => upload('icon', admin, [{ body: big, name: 'big.png' }]), 'Uploaded file is larger than the allowed limit of 5 MiB');
    await expectRefused(() => upload('icon', admin, [{ body: Buffer.from('text'), name: 'a.txt', type: 'text/plain' }]), 'Invalid image format', 'BAD_IMAGE');
    await expectRefused(() => upload('icon', admin, [{ body: Buffer.from('text'), name: 'a.png' }]), 'Could not decode image; did you upload an image file?', 'BAD_IMAGE');
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#ffffff' } }).png({ compressionLevel: 9 }).toBuffer();
    await expectRefused(() => upload('icon', admin, [{ body: bomb, name: 'bomb.png' }]), 'Image size exceeds limit.', 'BAD_IMAGE');
  });

  it('of another organization is its own', async () => {
    const before = await realmRow();
    const res = await upload('icon', otherOwner, [{ body: png, name: 'icon.png' }]);
    const otherRealm = (await t.sql(`SELECT realm_id FROM users WHERE id = $1`, [otherOwner.id]))[0].realm_id;
    expectSuccess(res, { icon_url: `/user_avatars/${otherRealm}/realm/icon.png?version=2` });
    expect(await realmRow()).toEqual(before);
  });
});

describe('the organization logos', () => {
  it('POST /realm/logo scales the day logo down into 800×100 and tells everyone', async () => {
    const queue = await EventClient.register(t, member, { event_types: ['realm'] });
    expectSuccess(await upload('logo', admin, [{ body: wide, name: 'logo.jpg', type: 'image/jpeg' }], { night: 'false' }));
    const url = `/user_avatars/${realmId}/realm/logo.png?version=2`;
    expect(await dimensions(await fetchFile(url))).toEqual({ format: 'png', width: 800, height: 40 });
    const [event] = await queue.ofType('realm');
    expect(event).toMatchObject({ type: 'realm', op: 'update_dict', property: 'logo', data: { logo_url: url, logo_source: 'U' } });
    expect((await EventClient.register(t, member)).state).toMatchObject({ realm_logo_url: url, realm_logo_source: 'U', realm_night_logo_source: 'D' });
    const res = await t.get('realm/logo', { as: member, query: { night: false } }).redirects(0);
    // Zulip appends the request's whole query string, `night` included.
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: `${url}&night=false` });
  });

  it('keeps a small night logo at its size, apart from the day one', async () => {
    const small = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#000000' } }).png().toBuffer();
    const queue = await EventClient.register(t, member, { event_types: ['realm'] });
    expectSuccess(await upload('logo', admin, [{ body: small, name: 'night.png' }], { night: 'true' }));
    const url = `/user_avatars/${realmId}/realm/night_logo.png?version=2`;
    expect(await dimensions(await fetchFile(url))).toEqual({ format: 'png', width: 40, height: 20 });
    const [event] = await queue.ofType('realm');
    expect(event).toMatchObject({ property: 'night_logo', data: { night_logo_url: url, night_logo_source: 'U' } });
    expect(await realmRow()).toMatchObject({ logo_source: 'U', logo_version: 2, night_logo_source: 'U', night_logo_version: 2 });
  });

  it('DELETE /realm/logo goes back to the default logo; GET then has nothing to redirect to', async () => {
    const queue = await EventClient.register(t, member, { event_types: ['realm'] });
    expectSuccess(await t.delete('realm/logo', { as: admin, query: { night: true } }));
    const [event] = await queue.ofType('realm');
    expect(event).toMatchObject({ property: 'night_logo', data: { night_logo_url: '', night_logo_source: 'D' } });
    expect(await realmRow()).toMatchObject({ logo_source: 'U', night_logo_source: 'D', night_logo_version: 3 });
    expectError(await t.get('realm/logo', { as: member, query: { night: true } }), 404, 'Not Found', 'NOT_FOUND');
  });

  it('needs `night`, and refuses what POST /realm/icon refuses', async () => {
    await expectRefused(() => upload('logo', member, [{ body: png, name: 'logo.png' }], { night: 'false' }), ...ADMIN_ONLY);
    const missing = ["Missing 'night' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'night' }] as const;
    await expectRefused(() => upload('logo', admin, [{ body: png, name: 'logo.png' }]), ...missing);
    await expectRefused(() => t.delete('realm/logo', { as: admin }), ...missing);
    await expectRefused(() => upload('logo', admin, [{ body: png, name: 'logo.png' }], { night: 'maybe' }), 'night is not valid JSON');
    await expectRefused(() => upload('logo', admin, [], { night: 'false' }), 'You must upload exactly one logo.');
    await expectRefused(() => upload('logo', admin, [{ body: Buffer.from('GIF89a'), name: 'x.gif', type: 'image/gif' }], { night: 'false' }), 'Could not decode image; did you upload an image file?', 'BAD_IMAGE');
    const truncated = png.subarray(0, Math.floor(png.length / 2));
    await expectRefused(() => upload('logo', admin, [{ body: truncated, name: 'half.png' }], { night: 'false' }), 'Image is corrupted or truncated', 'BAD_IMAGE');
  });
});
