import type { FieldDefinition } from '@app/domain/users';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { CustomProfileFieldQueries } from '../../../src/users/application/custom-profile-fields.ports.js';
import {
  TypeOrmCustomProfileFieldQueries,
  TypeOrmCustomProfileFieldRepository,
} from '../../../src/users/persistence/typeorm-custom-profile-field.repository.js';
import { type Account, TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
let queries: CustomProfileFieldQueries;
let realmId: number;
let otherRealmId: number;
let member: Account;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
  queries = t.app.get(CustomProfileFieldQueries);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
  member = await t.createUser();
  await t.createOrganization('other', 'other-owner@example.com');
  otherRealmId = (await ds.query(`SELECT id FROM realms WHERE string_id = 'other'`))[0].id;
});
afterAll(() => t.close());

const field = (name: string, o: Partial<FieldDefinition> = {}): FieldDefinition => ({
  name,
  hint: `${name} hint`,
  type: 3,
  fieldData: '{"a":{"text":"A","order":"1"}}',
  displayInProfileSummary: true,
  required: false,
  editableByUser: true,
  useForUserMatching: false,
  ...o,
});

describe('TypeOrmCustomProfileFieldRepository / TypeOrmCustomProfileFieldQueries', () => {
  it('are the adapters of their ports', async () => {
    expect(queries).toBeInstanceOf(TypeOrmCustomProfileFieldQueries);
    await uow.run(async (tx) => expect(tx.profileFields).toBeInstanceOf(TypeOrmCustomProfileFieldRepository));
  });

  it('inserts a field after the others and maps its row whole', async () => {
    const id = await uow.run((tx) => tx.profileFields.insert(realmId, field('Color', { required: true, useForUserMatching: true })));
    const expected = {
      id,
      realmId,
      name: 'Color',
      hint: 'Color hint',
      type: 3,
      fieldData: '{"a":{"text":"A","order":"1"}}',
      order: id,
      displayInProfileSummary: true,
      required: true,
      editableByUser: true,
      useForUserMatching: true,
    };
    expect(await uow.run((tx) => tx.profileFields.find(realmId, id, true))).toEqual(expected);
    expect(await uow.run((tx) => tx.profileFields.find(otherRealmId, id))).toBeNull();
    expect((await queries.list(realmId)).at(-1)).toEqual(expected);
    expect(await queries.list(otherRealmId)).toEqual([]);
  });

  it('reports a duplicate label lost to a concurrent writer as the rule it protects', async () => {
    await uow.run((tx) => tx.profileFields.insert(realmId, field('Twice')));
    await expect(uow.run((tx) => tx.profileFields.insert(realmId, field('Twice')))).rejects.toMatchObject({ msg: 'A field with that label already exists.' });
    // Another organization may use the label.
    await uow.run((tx) => tx.profileFields.insert(otherRealmId, field('Twice')));
  });

  it('saves, reorders, counts and deletes fields within the organization', async () => {
    const a = await uow.run((tx) => tx.profileFields.insert(realmId, field('A1', { displayInProfileSummary: false })));
    const b = await uow.run((tx) => tx.profileFields.insert(realmId, field('B1')));
    const summary = await uow.run((tx) => tx.profileFields.countInSummary(realmId));
    expect(await uow.run((tx) => tx.profileFields.countInSummary(realmId, b))).toBe(summary - 1);

    const fieldA = (await uow.run((tx) => tx.profileFields.find(realmId, a)))!;
    await uow.run((tx) => tx.profileFields.save({ ...fieldA, name: 'A2', hint: 'h', fieldData: '{}', displayInProfileSummary: true, required: true, editableByUser: false }));
    await uow.run((tx) => tx.profileFields.save({ ...fieldA, realmId: otherRealmId, name: 'hijack' }));
    expect(await uow.run((tx) => tx.profileFields.find(realmId, a))).toEqual({
      ...fieldA,
      name: 'A2',
      hint: 'h',
      fieldData: '{}',
      displayInProfileSummary: true,
      required: true,
      editableByUser: false,
    });
    expect(await uow.run((tx) => tx.profileFields.countInSummary(realmId))).toBe(summary + 1);

    await uow.run((tx) => tx.profileFields.setOrder(realmId, new Map([[a, 1_000_002], [b, 1_000_001]])));
    await uow.run((tx) => tx.profileFields.setOrder(otherRealmId, new Map([[a, 0]])));
    expect((await uow.run((tx) => tx.profileFields.list(realmId, true))).slice(-2).map((f) => [f.id, f.order])).toEqual([
      [b, 1_000_001],
      [a, 1_000_002],
    ]);

    await uow.run((tx) => tx.profileFields.delete(otherRealmId, b));
    expect(await uow.run((tx) => tx.profileFields.find(realmId, b))).not.toBeNull();
    await uow.run((tx) => tx.profileFields.delete(realmId, b));
    expect(await uow.run((tx) => tx.profileFields.find(realmId, b))).toBeNull();
  });

  it('upserts, reads and deletes a user’s values, in field order', async () => {
    const [x, y] = await uow.run(async (tx) => [await tx.profileFields.insert(realmId, field('X')), await tx.profileFields.insert(realmId, field('Y'))]);
    await uow.run((tx) => tx.profileFields.setOrder(realmId, new Map([[x, 2_000_002], [y, 2_000_001]])));
    await uow.run((tx) =>
      tx.profileFields.upsertValues(realmId, member.id, [
        { fieldId: x, value: 'a', renderedValue: null },
        { fieldId: y, value: 'b', renderedValue: '<p>b</p>' },
      ]),
    );
    await uow.run((tx) => tx.profileFields.upsertValues(realmId, member.id, [{ fieldId: x, value: 'c', renderedValue: '<p>c</p>' }]));
    await uow.run((tx) => tx.profileFields.upsertValues(realmId, member.id, []));
    const vx = { userId: member.id, fieldId: x, value: 'c', renderedValue: '<p>c</p>' };
    const vy = { userId: member.id, fieldId: y, value: 'b', renderedValue: '<p>b</p>' };
    expect(await uow.run((tx) => tx.profileFields.valuesOf(member.id, [x, y, 999_999]))).toEqual(new Map([[x, vx], [y, vy]]));
    expect(await uow.run((tx) => tx.profileFields.valuesOf(member.id, []))).toEqual(new Map());
    expect(await queries.valuesOfUser(realmId, member.id)).toEqual([vy, vx]);
    expect(await queries.valuesOfUser(otherRealmId, member.id)).toEqual([]);
    expect((await queries.valuesOfRealm(realmId)).get(member.id)).toEqual([vy, vx]);
    expect((await queries.valuesOfRealm(otherRealmId)).size).toBe(0);

    await uow.run((tx) => tx.profileFields.deleteValuesChoosing(x, ['zzz']));
    await uow.run((tx) => tx.profileFields.deleteValuesChoosing(x, []));
    expect(await queries.valuesOfUser(realmId, member.id)).toEqual([vy, vx]);
    await uow.run((tx) => tx.profileFields.deleteValuesChoosing(x, ['c']));
    expect(await queries.valuesOfUser(realmId, member.id)).toEqual([vy]);

    expect(await uow.run((tx) => tx.profileFields.deleteValues(member.id, [x, y]))).toEqual([y]);
    expect(await uow.run((tx) => tx.profileFields.deleteValues(member.id, []))).toEqual([]);
    expect(await queries.valuesOfUser(realmId, member.id)).toEqual([]);
  });
});
