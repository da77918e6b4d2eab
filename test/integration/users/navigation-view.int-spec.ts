import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TypeOrmNavigationViewRepository } from '../../../src/users/persistence/typeorm-navigation-view.repository.js';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
});
afterAll(() => t.close());

describe('TypeOrmNavigationViewRepository', () => {
  it('is the adapter of its port', async () => {
    await uow.run(async (tx) => expect(tx.navigationViews).toBeInstanceOf(TypeOrmNavigationViewRepository));
  });

  it('inserts, lists in insertion order, locks, updates and removes one user’s views', async () => {
    const [u, other] = [await t.createUser(), await t.createUser()];
    await uow.run(async (tx) => {
      await tx.navigationViews.insert(u.id, { fragment: 'narrow/b', isPinned: true, name: 'B' });
      await tx.navigationViews.insert(u.id, { fragment: 'narrow/a', isPinned: false, name: null });
      await tx.navigationViews.insert(other.id, { fragment: 'narrow/a', isPinned: true, name: 'B' });
    });
    expect(await uow.run((tx) => tx.navigationViews.list(u.id))).toEqual([
      { fragment: 'narrow/b', isPinned: true, name: 'B' },
      { fragment: 'narrow/a', isPinned: false, name: null },
    ]);
    await uow.run(async (tx) => {
      expect(await tx.navigationViews.fragmentTaken(u.id, 'narrow/a')).toBe(true);
      expect(await tx.navigationViews.fragmentTaken(u.id, 'narrow/c')).toBe(false);
      expect(await tx.navigationViews.nameTaken(u.id, 'B')).toBe(true);
      expect(await tx.navigationViews.nameTaken(u.id, 'b')).toBe(false);
      expect(await tx.navigationViews.lock(u.id, 'narrow/a')).toEqual({ fragment: 'narrow/a', isPinned: false, name: null });
      expect(await tx.navigationViews.lock(u.id, 'narrow/c')).toBeNull();
    });
    await uow.run((tx) => tx.navigationViews.update(u.id, 'narrow/a', { name: 'A', isPinned: null }));
    await uow.run((tx) => tx.navigationViews.update(u.id, 'narrow/b', { name: null, isPinned: false }));
    expect(await uow.run((tx) => tx.navigationViews.list(u.id))).toEqual([
      { fragment: 'narrow/b', isPinned: false, name: 'B' },
      { fragment: 'narrow/a', isPinned: false, name: 'A' },
    ]);
    await uow.run((tx) => tx.navigationViews.remove(u.id, 'narrow/b'));
    expect((await uow.run((tx) => tx.navigationViews.list(u.id))).map((v) => v.fragment)).toEqual(['narrow/a']);
    expect(await uow.run((tx) => tx.navigationViews.list(other.id))).toEqual([{ fragment: 'narrow/a', isPinned: true, name: 'B' }]);
  });

  it('reports a duplicate fragment or name lost to a concurrent writer as the rule it protects', async () => {
    const u = await t.createUser();
    await uow.run((tx) => tx.navigationViews.insert(u.id, { fragment: 'narrow/x', isPinned: false, name: 'X' }));
    await expect(uow.run((tx) => tx.navigationViews.insert(u.id, { fragment: 'narrow/x', isPinned: true, name: null }))).rejects.toMatchObject({
      msg: 'Navigation view already exists.',
    });
    await expect(uow.run((tx) => tx.navigationViews.insert(u.id, { fragment: 'narrow/y', isPinned: true, name: 'X' }))).rejects.toMatchObject({
      msg: 'Navigation view already exists.',
    });
  });
});
