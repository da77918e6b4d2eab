import {
  defaultUserSettings,
  NOT_COPIED_TO_NEW_USERS,
  type RealmUserDefaults,
  resolvedTopicPolicyName,
  resolvedTopicPolicyValue,
  type SettingChange,
  USER_SETTING_NAMES,
  type UserSettingValue,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RealmUserDefaultsQueries, RealmUserDefaultsRepository } from '../application/realm-user-defaults.ports.js';
import { returnedRows } from '../../shared/persistence/rows.js';

/** A realm_user_defaults row: a column per setting (names from the domain's catalogue, never from a request). */
type DefaultsRow = Record<(typeof USER_SETTING_NAMES)[number], UserSettingValue>;

const COLUMNS = USER_SETTING_NAMES.join(', ');
const POLICY = 'resolved_topic_notice_auto_read_policy';
/** The settings a new account takes from its organization's defaults. */
const COPIED = USER_SETTING_NAMES.filter((n) => !NOT_COPIED_TO_NEW_USERS.includes(n));

/** The model defaults (an organization without a row). */
function modelDefaults(): RealmUserDefaults {
  const { timezone: _, ...rest } = defaultUserSettings();
  return rest;
}

function toDefaults(row: DefaultsRow | undefined): RealmUserDefaults {
  if (row === undefined) return modelDefaults();
  const out = Object.fromEntries(USER_SETTING_NAMES.map((n) => [n, row[n]])) as RealmUserDefaults;
  out[POLICY] = resolvedTopicPolicyName(Number(row[POLICY]));
  return out;
}

const stored = (c: SettingChange): UserSettingValue => (c.name === POLICY ? resolvedTopicPolicyValue(String(c.value)) : c.value);

async function read(em: EntityManager | DataSource, realmId: number, lock: boolean): Promise<RealmUserDefaults> {
  const rows: DefaultsRow[] = await em.query(`SELECT ${COLUMNS} FROM realm_user_defaults WHERE realm_id = $1 ${lock ? 'FOR UPDATE' : ''}`, [realmId]);
  return toDefaults(rows[0]);
}

export class TypeOrmRealmUserDefaultsRepository extends RealmUserDefaultsRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  getForUpdate(realmId: number): Promise<RealmUserDefaults> {
    return read(this.em, realmId, true);
  }

  async apply(realmId: number, changes: readonly SettingChange[]): Promise<void> {
    if (changes.length === 0) return;
    const names = changes.map((c) => c.name);
    const params = changes.map((_, i) => `$${i + 2}`).join(', ');
    await this.em.query(
      `INSERT INTO realm_user_defaults (realm_id, ${names.join(', ')}) VALUES ($1, ${params})
       ON CONFLICT (realm_id) DO UPDATE SET ${names.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}`,
      [realmId, ...changes.map(stored)],
    );
  }

  async copyToNewUser(realmId: number, userId: number): Promise<number | null> {
    const result: unknown = await this.em.query(
      `UPDATE users u SET ${COPIED.map((n) => `${n} = d.${n}`).join(', ')}
         FROM realm_user_defaults d
        WHERE d.realm_id = u.realm_id AND u.realm_id = $1 AND u.id = $2
        RETURNING u.email_address_visibility`,
      [realmId, userId],
    );
    const rows = returnedRows<{ email_address_visibility: number }>(result);
    return rows.length === 0 ? null : rows[0].email_address_visibility;
  }
}

@Injectable()
export class TypeOrmRealmUserDefaultsQueries extends RealmUserDefaultsQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  of(realmId: number): Promise<RealmUserDefaults> {
    return read(this.ds, realmId, false);
  }
}
