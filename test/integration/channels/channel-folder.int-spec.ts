import { DataSource } from 'typeorm';
import { TypeOrmChannelFolderRepository } from '../../../src/channels/persistence/typeorm-channel-folder.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { createChannels } from '../../support/channels.js';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
let otherRealmId: number;
let otherOwnerId: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;
  realmId = await realmOf(t.owner.id);
  otherOwnerId = (await t.createOrganization('folderother')).id;
  otherRealmId = await realmOf(otherOwnerId);
});
afterAll(() => t.close());

const now = new Date('2025-06-07T08:09:10.111Z');

const create = (name: string, realm = realmId, creatorId = t.owner.id) =>
  uow.run((tx) => tx.channelFolders.create({ realmId: realm, name, description: `${name} d`, renderedDescription: `<p>${name} d</p>`, creatorId, now }));

describe('TypeOrmChannelFolderRepository', () => {
  it('is what the transaction hands out', async () => {
    await uow.run(async (tx) => expect(tx.channelFolders).toBeInstanceOf(TypeOrmChannelFolderRepository));
  });

  it('creates a folder placed last (its order is its id) and reads it back locked', async () => {
    const id = await create('Created');
    expect(await uow.run((tx) => tx.channelFolders.getForUpdate(realmId, id))).toEqual({
      id,
      name: 'Created',
      description: 'Created d',
      renderedDescription: '<p>Created d</p>',
      order: id,
      dateCreated: now,
      creatorId: t.owner.id,
      isArchived: false,
    });
    expect(await uow.run((tx) => tx.channelFolders.getForUpdate(otherRealmId, id))).toBeNull();
    expect(await uow.run((tx) => tx.channelFolders.getForUpdate(realmId, 2 ** 40))).toBeNull();
    await uow.run(async (tx) => {
      await tx.channelFolders.getForUpdate(realmId, id);
      await expect(t.sql(`SELECT 1 FROM channel_folders WHERE id = $1 FOR UPDATE NOWAIT`, [id])).rejects.toThrow(/could not obtain lock/);
    });
  });

  it('tells whether a folder exists in the organization', async () => {
    const id = await create('Exists');
    await uow.run(async (tx) => {
      expect(await tx.channelFolders.exists(realmId, id)).toBe(true);
      expect(await tx.channelFolders.exists(otherRealmId, id)).toBe(false);
      expect(await tx.channelFolders.exists(realmId, 2 ** 40)).toBe(false);
    });
  });

  it('checks names case-insensitively among the organization’s folders that are not archived', async () => {
    const id = await create('Named');
    const archived = await create('Archived name');
    await uow.run((tx) => tx.channelFolders.update(archived, { isArchived: true }));
    await uow.run(async (tx) => {
      expect(await tx.channelFolders.nameTaken(realmId, 'NAMED')).toBe(true);
      expect(await tx.channelFolders.nameTaken(realmId, 'archived name')).toBe(false);
      expect(await tx.channelFolders.nameTaken(otherRealmId, 'named')).toBe(false);
      expect(await tx.channelFolders.nameTakenByOther(realmId, 'named', id)).toBe(false);
      expect(await tx.channelFolders.nameTakenByOther(realmId, 'named', archived)).toBe(true);
      expect(await tx.channelFolders.nameTakenByOther(otherRealmId, 'named', archived)).toBe(false);
    });
  });

  it('updates only the fields given', async () => {
    const id = await create('Updated');
    await uow.run((tx) => tx.channelFolders.update(id, { name: 'Renamed' }));
    await uow.run((tx) => tx.channelFolders.update(id, { description: 'nd', renderedDescription: '<p>nd</p>' }));
    await uow.run((tx) => tx.channelFolders.update(id, { isArchived: true }));
    expect(await uow.run((tx) => tx.channelFolders.getForUpdate(realmId, id))).toMatchObject({
      name: 'Renamed',
      description: 'nd',
      renderedDescription: '<p>nd</p>',
      isArchived: true,
    });
    await uow.run((tx) => tx.channelFolders.update(id, { isArchived: false }));
    expect(await uow.run((tx) => tx.channelFolders.getForUpdate(realmId, id))).toMatchObject({ name: 'Renamed', isArchived: false });
  });

  it('tells whether a channel that is not archived is in the folder', async () => {
    const id = await create('Used');
    const { used } = await createChannels(t, ['used']);
    expect(await uow.run((tx) => tx.channelFolders.inUse(id))).toBe(false);
    await ds.query(`UPDATE channels SET folder_id = $1 WHERE id = $2`, [id, used]);
    expect(await uow.run((tx) => tx.channelFolders.inUse(id))).toBe(true);
    await ds.query(`UPDATE channels SET is_archived = true WHERE id = $1`, [used]);
    expect(await uow.run((tx) => tx.channelFolders.inUse(id))).toBe(false);
  });

  it('locks every folder id of the organization, archived ones included, and reorders them there', async () => {
    const a = await create('Order a');
    const b = await create('Order b');
    await uow.run((tx) => tx.channelFolders.update(b, { isArchived: true }));
    const theirs = await create('Order theirs', otherRealmId, otherOwnerId);
    const ids = await uow.run((tx) => tx.channelFolders.idsForUpdate(realmId));
    expect(ids).toEqual(expect.arrayContaining([a, b]));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(ids).not.toContain(theirs);
    await uow.run((tx) =>
      tx.channelFolders.setOrder(
        realmId,
        new Map([
          [a, 20],
          [b, 10],
          [theirs, 5],
        ]),
      ),
    );
    const orders = await ds.query(`SELECT id, "order" FROM channel_folders WHERE id = ANY($1::int[]) ORDER BY id`, [[a, b, theirs]]);
    expect(orders).toEqual([
      { id: a, order: 20 },
      { id: b, order: 10 },
      { id: theirs, order: theirs },
    ]);
  });
});
