import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TestApp } from '../../support/test-app.js';
import { TypeOrmLinkifierRepository, TypeOrmPlaygroundRepository } from '../../../src/realm/persistence/typeorm-realm-resources.repository.js';
import { failure } from '../../support/adapter-suite.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let realmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
});
afterAll(() => t.close());

const linkifier = (pattern: string) => ({
  pattern,
  urlTemplate: 'https://x/{id}',
  exampleInput: null,
  reverseTemplate: null,
  alternativeUrlTemplates: ['https://y/{id}'],
});

describe('organization resources in PostgreSQL (TypeOrmLinkifierRepository, TypeOrmPlaygroundRepository)', () => {
  it('reports a duplicate that slipped past the checks with the rule’s own text', async () => {
    await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('#(?P<id>\\d+)')));
    const e = await failure(uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('#(?P<id>\\d+)'))));
    expect([e.msg, e.data]).toEqual([
      'Realm filter with this Realm and Pattern already exists.',
      { errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] } },
    ]);

    const playground = { name: 'P', pygmentsLanguage: 'Python', urlTemplate: 'https://p{code}' };
    await uow.run((tx) => tx.playgrounds.insert(realmId, playground));
    expect((await failure(uow.run((tx) => tx.playgrounds.insert(realmId, playground)))).msg).toBe(
      'Realm playground with this Realm, Pygments language and Name already exists.',
    );

    await uow.run((tx) => tx.realms.addDomain(realmId, 'acme.com', false));
    expect((await failure(uow.run((tx) => tx.realms.addDomain(realmId, 'acme.com', true)))).msg).toBe(
      'The domain acme.com is already a part of your organization.',
    );
  });

  it('keeps long patterns unique through their digest', async () => {
    const long = `(?P<id>\\d+)${'a'.repeat(10_000)}`;
    await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier(long)));
    expect(await uow.run((tx) => tx.linkifiers.patternTaken(realmId, long))).toBe(true);
    expect(await uow.run((tx) => tx.linkifiers.patternTaken(realmId, `${long}b`))).toBe(false);
  });

  it('appends linkifiers after the last in order, and reorders them', async () => {
    const before = await uow.run((tx) => tx.linkifiers.lockIds(realmId));
    const a = await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('A(?P<id>\\d+)')));
    const b = await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('B(?P<id>\\d+)')));
    const order = async () =>
      (await ds.query(`SELECT id FROM linkifiers WHERE realm_id = $1 ORDER BY "order", id`, [realmId])).map((r: { id: number }) => r.id);
    expect(await order()).toEqual([...before, a, b]);
    await uow.run((tx) => tx.linkifiers.setOrder(realmId, [b, ...before, a]));
    expect(await order()).toEqual([b, ...before, a]);
    const c = await uow.run((tx) => tx.linkifiers.insert(realmId, linkifier('C(?P<id>\\d+)')));
    expect(await order()).toEqual([b, ...before, a, c]);
    const [row] = await ds.query(`SELECT alternative_url_templates FROM linkifiers WHERE id = $1`, [c]);
    expect(row.alternative_url_templates).toEqual(['https://y/{id}']);
  });

  it('are the adapters of their ports', async () => {
    await uow.run(async (tx) => {
      expect(tx.linkifiers).toBeInstanceOf(TypeOrmLinkifierRepository);
      expect(tx.playgrounds).toBeInstanceOf(TypeOrmPlaygroundRepository);
    });
  });

  it('maps a linkifier row whole, updates and removes it within the organization', async () => {
    const otherRealmId = realmId + 1000;
    const id = await uow.run((tx) => tx.linkifiers.insert(realmId, { ...linkifier('M(?P<id>\\d+)'), exampleInput: 'M1', reverseTemplate: 'https://x/{id}' }));
    const record = {
      id,
      pattern: 'M(?P<id>\\d+)',
      urlTemplate: 'https://x/{id}',
      exampleInput: 'M1',
      reverseTemplate: 'https://x/{id}',
      alternativeUrlTemplates: ['https://y/{id}'],
    };
    expect(await uow.run((tx) => tx.linkifiers.find(realmId, id))).toEqual(record);
    expect(await uow.run((tx) => tx.linkifiers.find(otherRealmId, id))).toBeNull();
    expect(await uow.run((tx) => tx.linkifiers.list(realmId))).toContainEqual(record);
    expect(await uow.run((tx) => tx.linkifiers.list(otherRealmId))).toEqual([]);
    expect(await uow.run((tx) => tx.linkifiers.patternTaken(realmId, record.pattern, id))).toBe(false);
    expect(await uow.run((tx) => tx.linkifiers.patternTaken(otherRealmId, record.pattern))).toBe(false);

    const changed = { pattern: 'N(?P<id>\\d+)', urlTemplate: 'https://n/{id}', exampleInput: null, reverseTemplate: null, alternativeUrlTemplates: [] };
    await uow.run((tx) => tx.linkifiers.update(otherRealmId, id, changed));
    expect(await uow.run((tx) => tx.linkifiers.find(realmId, id))).toEqual(record);
    await uow.run((tx) => tx.linkifiers.update(realmId, id, changed));
    expect(await uow.run((tx) => tx.linkifiers.find(realmId, id))).toEqual({ id, ...changed });
    await uow.run((tx) => tx.linkifiers.remove(otherRealmId, id));
    expect(await uow.run((tx) => tx.linkifiers.find(realmId, id))).not.toBeNull();
    await uow.run((tx) => tx.linkifiers.remove(realmId, id));
    expect(await uow.run((tx) => tx.linkifiers.find(realmId, id))).toBeNull();
  });

  it('maps a playground row whole, answers whether a name is taken and removes it within the organization', async () => {
    const otherRealmId = realmId + 1000;
    const def = { name: 'Rust playground', pygmentsLanguage: 'Rust', urlTemplate: 'https://play/{code}' };
    const id = await uow.run((tx) => tx.playgrounds.insert(realmId, def));
    expect(await uow.run((tx) => tx.playgrounds.find(realmId, id))).toEqual({ id, ...def });
    expect(await uow.run((tx) => tx.playgrounds.find(otherRealmId, id))).toBeNull();
    expect(await uow.run((tx) => tx.playgrounds.list(realmId))).toContainEqual({ id, ...def });
    expect(await uow.run((tx) => tx.playgrounds.list(otherRealmId))).toEqual([]);
    expect(await uow.run((tx) => tx.playgrounds.taken(realmId, 'Rust', 'Rust playground'))).toBe(true);
    expect(await uow.run((tx) => tx.playgrounds.taken(realmId, 'Python', 'Rust playground'))).toBe(false);
    expect(await uow.run((tx) => tx.playgrounds.taken(otherRealmId, 'Rust', 'Rust playground'))).toBe(false);
    await uow.run((tx) => tx.playgrounds.remove(otherRealmId, id));
    expect(await uow.run((tx) => tx.playgrounds.find(realmId, id))).not.toBeNull();
    await uow.run((tx) => tx.playgrounds.remove(realmId, id));
    expect(await uow.run((tx) => tx.playgrounds.find(realmId, id))).toBeNull();
  });
});
