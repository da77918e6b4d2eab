import type { CustomProfileFieldState, FieldDefinition } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  CustomProfileFieldQueries,
  CustomProfileFieldRepository,
  type ProfileValueRecord,
} from '../application/custom-profile-fields.ports.js';
import { returnedRows } from '../../shared/persistence/rows.js';

const FIELD_SELECT = `SELECT id, realm_id, name, hint, field_type, field_data, ordering, display_in_profile_summary, required,
  editable_by_user, use_for_user_matching FROM custom_profile_fields`;

/** A custom_profile_fields row (FIELD_SELECT). */
interface FieldRow {
  id: number;
  realm_id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  ordering: number;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
  use_for_user_matching: boolean;
}

function toField(r: FieldRow): CustomProfileFieldState {
  return {
    id: r.id,
    realmId: r.realm_id,
    name: r.name,
    hint: r.hint,
    type: r.field_type,
    fieldData: r.field_data,
    order: r.ordering,
    displayInProfileSummary: r.display_in_profile_summary,
    required: r.required,
    editableByUser: r.editable_by_user,
    useForUserMatching: r.use_for_user_matching,
  };
}

/** A custom_profile_field_values row (also the JSON objects TypeOrmUserQueries aggregates them into). */
export interface ProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export const toValue = (r: ProfileValueRow): ProfileValueRecord => ({
  userId: r.user_id,
  fieldId: r.field_id,
  value: r.value,
  renderedValue: r.rendered_value,
});

export class TypeOrmCustomProfileFieldRepository extends CustomProfileFieldRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(realmId: number, forUpdate = false): Promise<CustomProfileFieldState[]> {
    const rows: FieldRow[] = await this.em.query(`${FIELD_SELECT} WHERE realm_id = $1 ORDER BY ordering, id ${forUpdate ? 'FOR UPDATE' : ''}`, [realmId]);
    return rows.map(toField);
  }

  async find(realmId: number, fieldId: number, forUpdate = false): Promise<CustomProfileFieldState | null> {
    const [row]: FieldRow[] = await this.em.query(`${FIELD_SELECT} WHERE realm_id = $1 AND id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`, [realmId, fieldId]);
    return row === undefined ? null : toField(row);
  }

  async insert(realmId: number, d: FieldDefinition): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO custom_profile_fields (realm_id, name, hint, field_type, field_data, ordering, display_in_profile_summary,
         required, editable_by_user, use_for_user_matching)
       VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8, $9) RETURNING id`,
      [realmId, d.name, d.hint, d.type, d.fieldData, d.displayInProfileSummary, d.required, d.editableByUser, d.useForUserMatching],
    );
    await this.em.query(`UPDATE custom_profile_fields SET ordering = id WHERE id = $1`, [row.id]);
    return row.id;
  }

  async save(f: CustomProfileFieldState): Promise<void> {
    await this.em.query(
      `UPDATE custom_profile_fields SET name = $3, hint = $4, field_data = $5, display_in_profile_summary = $6, required = $7,
         editable_by_user = $8, use_for_user_matching = $9
       WHERE realm_id = $1 AND id = $2`,
      [f.realmId, f.id, f.name, f.hint, f.fieldData, f.displayInProfileSummary, f.required, f.editableByUser, f.useForUserMatching],
    );
  }

  async delete(realmId: number, fieldId: number): Promise<void> {
    await this.em.query(`DELETE FROM custom_profile_fields WHERE realm_id = $1 AND id = $2`, [realmId, fieldId]);
  }

  async setOrder(realmId: number, order: ReadonlyMap<number, number>): Promise<void> {
    await this.em.query(
      `UPDATE custom_profile_fields f SET ordering = o.ordering
       FROM unnest($2::int[], $3::int[]) AS o(id, ordering) WHERE f.realm_id = $1 AND f.id = o.id`,
      [realmId, [...order.keys()], [...order.values()]],
    );
  }

  async countInSummary(realmId: number, exceptFieldId?: number): Promise<number> {
    const [{ n }]: { n: number }[] = await this.em.query(
      `SELECT count(*)::int AS n FROM custom_profile_fields WHERE realm_id = $1 AND display_in_profile_summary AND id <> $2`,
      [realmId, exceptFieldId ?? 0],
    );
    return n;
  }

  async deleteValuesChoosing(fieldId: number, choices: readonly string[]): Promise<void> {
    if (choices.length === 0) return;
    await this.em.query(`DELETE FROM custom_profile_field_values WHERE field_id = $1 AND value = ANY($2::text[])`, [fieldId, choices]);
  }

  async valuesOf(userId: number, fieldIds: readonly number[]): Promise<Map<number, ProfileValueRecord>> {
    if (fieldIds.length === 0) return new Map();
    const rows: ProfileValueRow[] = await this.em.query(
      `SELECT user_id, field_id, value, rendered_value FROM custom_profile_field_values WHERE user_id = $1 AND field_id = ANY($2::int[])`,
      [userId, fieldIds],
    );
    return new Map(rows.map((r) => [r.field_id, toValue(r)]));
  }

  async upsertValues(realmId: number, userId: number, values: readonly Omit<ProfileValueRecord, 'userId'>[]): Promise<void> {
    if (values.length === 0) return;
    await this.em.query(
      `INSERT INTO custom_profile_field_values (user_id, field_id, realm_id, value, rendered_value)
       SELECT $1, v.field_id, $2, v.value, v.rendered_value FROM unnest($3::int[], $4::text[], $5::text[]) AS v(field_id, value, rendered_value)
       ON CONFLICT (user_id, field_id) DO UPDATE SET value = EXCLUDED.value, rendered_value = EXCLUDED.rendered_value`,
      [userId, realmId, values.map((v) => v.fieldId), values.map((v) => v.value), values.map((v) => v.renderedValue)],
    );
  }

  async deleteValues(userId: number, fieldIds: readonly number[]): Promise<number[]> {
    if (fieldIds.length === 0) return [];
    const result: unknown = await this.em.query(
      `DELETE FROM custom_profile_field_values WHERE user_id = $1 AND field_id = ANY($2::int[]) RETURNING field_id`,
      [userId, fieldIds],
    );
    return returnedRows<{ field_id: number }>(result).map((r) => r.field_id);
  }
}

@Injectable()
export class TypeOrmCustomProfileFieldQueries extends CustomProfileFieldQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async list(realmId: number): Promise<CustomProfileFieldState[]> {
    const rows: FieldRow[] = await this.ds.query(`${FIELD_SELECT} WHERE realm_id = $1 ORDER BY ordering, id`, [realmId]);
    return rows.map(toField);
  }

  async valuesOfRealm(realmId: number): Promise<Map<number, ProfileValueRecord[]>> {
    const rows: ProfileValueRow[] = await this.ds.query(
      `SELECT v.user_id, v.field_id, v.value, v.rendered_value FROM custom_profile_field_values v
       JOIN custom_profile_fields f ON f.id = v.field_id
       WHERE v.realm_id = $1 ORDER BY v.user_id, f.ordering, f.id`,
      [realmId],
    );
    const out = new Map<number, ProfileValueRecord[]>();
    for (const r of rows.map(toValue)) {
      if (!out.has(r.userId)) out.set(r.userId, []);
      out.get(r.userId)!.push(r);
    }
    return out;
  }

  async valuesOfUser(realmId: number, userId: number): Promise<ProfileValueRecord[]> {
    const rows: ProfileValueRow[] = await this.ds.query(
      `SELECT v.user_id, v.field_id, v.value, v.rendered_value FROM custom_profile_field_values v
       JOIN custom_profile_fields f ON f.id = v.field_id
       WHERE v.realm_id = $1 AND v.user_id = $2 ORDER BY f.ordering, f.id`,
      [realmId, userId],
    );
    return rows.map(toValue);
  }
}
