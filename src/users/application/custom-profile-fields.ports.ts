import type { CustomProfileFieldState, FieldDefinition } from '@app/domain/users';

/** One user's stored value of one field. */
export interface ProfileValueRecord {
  userId: number;
  fieldId: number;
  value: string;
  renderedValue: string | null;
}

export abstract class CustomProfileFieldRepository {
  /** The organization's fields in display order (locked when `forUpdate`, e.g. for a reorder). */
  abstract list(realmId: number, forUpdate?: boolean): Promise<CustomProfileFieldState[]>;
  abstract find(realmId: number, fieldId: number, forUpdate?: boolean): Promise<CustomProfileFieldState | null>;
  /** Inserts a field placed after the others (its order is its ID, as Zulip does). */
  abstract insert(realmId: number, def: FieldDefinition): Promise<number>;
  abstract save(field: CustomProfileFieldState): Promise<void>;
  /** Deletes the field and every user's value of it. */
  abstract delete(realmId: number, fieldId: number): Promise<void>;
  abstract setOrder(realmId: number, order: ReadonlyMap<number, number>): Promise<void>;
  /** How many fields show in the profile summary, `exceptFieldId` aside. */
  abstract countInSummary(realmId: number, exceptFieldId?: number): Promise<number>;
  /** A List of options lost choices: the values naming them go. */
  abstract deleteValuesChoosing(fieldId: number, choices: readonly string[]): Promise<void>;
  abstract valuesOf(userId: number, fieldIds: readonly number[]): Promise<Map<number, ProfileValueRecord>>;
  /** Inserts or replaces one user's values (one statement). */
  abstract upsertValues(realmId: number, userId: number, values: readonly Omit<ProfileValueRecord, 'userId'>[]): Promise<void>;
  /** Deletes one user's values of these fields; returns the fields that had one. */
  abstract deleteValues(userId: number, fieldIds: readonly number[]): Promise<number[]>;
}

export abstract class CustomProfileFieldQueries {
  abstract list(realmId: number): Promise<CustomProfileFieldState[]>;
  /** Every value of the organization, by user. */
  abstract valuesOfRealm(realmId: number): Promise<Map<number, ProfileValueRecord[]>>;
  abstract valuesOfUser(realmId: number, userId: number): Promise<ProfileValueRecord[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly profileFields: CustomProfileFieldRepository;
  }
}
