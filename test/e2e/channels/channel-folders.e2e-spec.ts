import { DataSource } from 'typeorm';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** Channel folders: their add events, PATCH /channel_folders/{id}, PATCH /channel_folders (order), and register. */

let t: TestApp;
let admin: Account;
let member: Account;
let guest: Account;
let otherOwner: Account;

const db = () => t.app.get(DataSource);
const rows = async () => db().query(`SELECT id, name, description, rendered_description, is_archived, "order" FROM channel_folders ORDER BY id`);
const create = async (name: string, as: Account = admin) => {
  const res = await t.post('channel_folders/create', { as, form: { name, description: `About ${name}` } });
  expectSuccess(res);
  return res.body.channel_folder_id as number;
};

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.createUser({ role: 200, fullName: 'Ada Admin' });
  member = await t.createUser({ fullName: 'Mia Member' });
  guest = await t.createUser({ role: 600, fullName: 'Gus Guest' });
  otherOwner = await t.createOrganization('other');
});
afterAll(() => t.close());

describe('channel folders', () => {
  it('announces a new folder to everyone and lists folders in register', async () => {
    const [m, g] = [await EventClient.register(t, member, { event_types: ['channel_folder'] }), await EventClient.register(t, guest, { event_types: ['channel_folder'] })];
    const id = await create('Teams');
    const expected = {
      type: 'channel_folder',
      op: 'add',
      channel_folder: {
        id,
        name: 'Teams',
        description: 'About Teams',
        rendered_description: '<p>About Teams</p>',
        order: id,
        date_created: expect.any(Number),
        creator_id: admin.id,
        is_archived: false,
      },
    };
    for (const q of [m, g]) expect(await q.ofType('channel_folder')).toEqual([{ id: expect.any(Number), ...expected }]);
    const reg = await t.post('register', { as: member, form: { fetch_event_types: ['channel_folders'] } });
    expect(reg.body.channel_folders).toEqual([expected.channel_folder]);
  });

  it('renames, describes and archives a folder, one update event per change, in that order', async () => {
    const id = await create('Projects');
    const q = await EventClient.register(t, member, { event_types: ['channel_folder'] });
    expectSuccess(await t.patch(`channel_folders/${id}`, { as: admin, form: { name: 'Initiatives', description: 'New *words*', is_archived: true } }));
    expect((await q.ofType('channel_folder', 3)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Initiatives' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'New *words*', rendered_description: expect.stringContaining('New') } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
    ]);
    expect((await rows()).find((r: { id: number }) => r.id === id)).toMatchObject({ name: 'Initiatives', description: 'New *words*', is_archived: true });
    // Unchanged values change nothing and announce nothing; unarchiving works.
    expectSuccess(await t.patch(`channel_folders/${id}`, { as: admin, form: { name: 'Initiatives' } }));
    expect(await q.drain()).toEqual([]);
    expectSuccess(await t.patch(`channel_folders/${id}`, { as: admin, form: { is_archived: false } }));
  });

  it('refuses to archive a folder that still holds channels, and names taken by another folder', async () => {
    const busy = await create('Busy');
    await createChannels(t, ['in-folder'], { as: admin, form: { folder_id: busy } });
    const before = await rows();
    expectError(await t.patch(`channel_folders/${busy}`, { as: admin, form: { is_archived: true } }), 400, 'You need to remove all the channels from this folder to archive it.');
    expectError(await t.patch(`channel_folders/${busy}`, { as: admin, form: { name: 'teams' } }), 400, 'Channel folder name already in use');
    expectError(await t.patch(`channel_folders/${busy}`, { as: admin, form: { name: '  ' } }), 400, "Channel folder name can't be empty.");
    // A failing change leaves the earlier ones of the same request undone.
    expectError(await t.patch(`channel_folders/${busy}`, { as: admin, form: { description: 'changed', is_archived: true } }), 400, 'You need to remove all the channels from this folder to archive it.');
    expect(await rows()).toEqual(before);
  });

  it('refuses unknown folders, other organizations, non-administrators, bad types and oversized values', async () => {
    const id = await create('Guarded');
    const before = await rows();
    const [{ id: foreign }] = await db().query(
      `INSERT INTO channel_folders (realm_id, name, description, rendered_description, date_created, creator_id)
       SELECT realm_id, 'Theirs', '', '', now(), id FROM users WHERE id = $1 RETURNING id`,
      [otherOwner.id],
    );
    expectError(await t.patch(`channel_folders/987654`, { as: admin, form: { name: 'x' } }), 400, 'Invalid channel folder ID');
    expectError(await t.patch(`channel_folders/${foreign}`, { as: admin, form: { name: 'x' } }), 400, 'Invalid channel folder ID');
    expectError(await t.patch(`channel_folders/${id}`, { as: member, form: { name: 'x' } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.patch(`channel_folders/${id}`, { as: admin, form: { is_archived: '"yes"' } }), 400, 'is_archived is not a boolean');
    expectError(await t.patch(`channel_folders/${id}`, { as: admin, form: { name: 'n'.repeat(61) } }), 400, 'name is too long (limit: 60 characters)');
    expectError(await t.patch(`channel_folders/${id}`, { as: admin, form: { description: 'd'.repeat(1025) } }), 400, 'description is too long (limit: 1024 characters)');
    expect((await t.patch(`channel_folders/${2 ** 40}`, { as: admin, form: { name: 'x' } })).status).toBeLessThan(500);
    await db().query(`DELETE FROM channel_folders WHERE id = $1`, [foreign]);
    expect(await rows()).toEqual(before);
  });

  it('reorders every folder of the organization (archived ones included) and announces the order', async () => {
    const ids = (await rows()).map((r: { id: number }) => r.id);
    const q = await EventClient.register(t, guest, { event_types: ['channel_folder'] });
    const order = [...ids].reverse();
    expectSuccess(await t.patch('channel_folders', { as: admin, form: { order: [...order, 999999] } }));
    expect(await q.ofType('channel_folder')).toEqual([{ id: expect.any(Number), type: 'channel_folder', op: 'reorder', order: [...order, 999999] }]);
    const after = await rows();
    for (const r of after) expect(r.order).toBe(order.indexOf(r.id));
    const reg = await t.post('register', { as: member, form: { fetch_event_types: ['channel_folders'] } });
    expect(reg.body.channel_folders.map((f: { id: number }) => f.id)).toEqual(order);
  });

  it('refuses an order that leaves a folder out, bad types and non-administrators, changing nothing', async () => {
    const before = await rows();
    const ids = before.map((r: { id: number }) => r.id);
    expectError(await t.patch('channel_folders', { as: admin, form: { order: ids.slice(1) } }), 400, 'Invalid order mapping.');
    expectError(await t.patch('channel_folders', { as: admin, form: { order: [2 ** 40] } }), 400, 'Invalid order mapping.');
    expectError(await t.patch('channel_folders', { as: admin, form: { order: '["a"]' } }), 400, 'order[0] is not an integer');
    expectError(await t.patch('channel_folders', { as: admin, form: {} }), 400, "Missing 'order' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'order' });
    expectError(await t.patch('channel_folders', { as: guest, form: { order: ids } }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expect(await rows()).toEqual(before);
  });
});
