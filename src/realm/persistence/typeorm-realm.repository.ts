import type { GroupSettingValue } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GROUPS_WITH_MEMBERS_SQL, settingValueFrom } from '../../users/persistence/typeorm-user.queries.js';
import { RealmQueries, type RealmRecord, RealmRepository } from '../application/realm.ports.js';
import { camelRow } from '../../shared/persistence/rows.js';
import { RealmRow } from './realm.row.js';

const BOOTSTRAP_LOCK = 0x5ec0001;

async function readGroupSettings(em: EntityManager, realmId: number): Promise<Record<string, GroupSettingValue>> {
  const settings: { setting: string; group_id: number }[] = await em.query(
    `SELECT setting, group_id FROM realm_group_settings WHERE realm_id = $1`,
    [realmId],
  );
  const anonymous = settings.length > 0 ? await em.query(GROUPS_WITH_MEMBERS_SQL, [realmId]) : [];
  const byId = new Map(anonymous.map((g: { id: number }) => [g.id, g]));
  return Object.fromEntries(settings.map((s) => [s.setting, settingValueFrom(byId as never, s.group_id)]));
}

async function getRealm(em: EntityManager, realmId: number): Promise<RealmRecord> {
  const [row] = await em.query(`SELECT * FROM realms WHERE id = $1`, [realmId]);
  if (!row) throw new Error(`no realm ${realmId}`);
  return camelRow<RealmRecord>(row);
}

export class TypeOrmRealmRepository extends RealmRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lockForBootstrap(): Promise<void> {
    await this.em.query(`SELECT pg_advisory_xact_lock($1)`, [BOOTSTRAP_LOCK]);
  }

  async firstRealmId(): Promise<number | null> {
    const rows = await this.em.query(`SELECT id FROM realms ORDER BY id LIMIT 1`);
    return rows.length > 0 ? rows[0].id : null;
  }

  async insert(r: { stringId: string; name: string; dateCreated: Date }): Promise<number> {
    const result = await this.em.getRepository(RealmRow).insert(r);
    return result.identifiers[0].id as number;
  }

  get(realmId: number): Promise<RealmRecord> {
    return getRealm(this.em, realmId);
  }

  async groupSetting(realmId: number, setting: string): Promise<GroupSettingValue> {
    const value = (await readGroupSettings(this.em, realmId))[setting];
    if (value === undefined) throw new Error(`realm ${realmId} has no ${setting}`);
    return value;
  }

  groupSettings(realmId: number): Promise<Record<string, GroupSettingValue>> {
    return readGroupSettings(this.em, realmId);
  }

  async setGroupSettings(realmId: number, groupIds: Readonly<Record<string, number>>): Promise<void> {
    const names = Object.keys(groupIds);
    await this.em.query(
      `INSERT INTO realm_group_settings (realm_id, setting, group_id)
       SELECT $1, s, g FROM unnest($2::text[], $3::int[]) AS x(s, g)
       ON CONFLICT (realm_id, setting) DO UPDATE SET group_id = EXCLUDED.group_id`,
      [realmId, names, names.map((n) => groupIds[n])],
    );
  }

  async domains(realmId: number): Promise<{ domain: string; allowSubdomains: boolean }[]> {
    const rows = await this.em.query(
      `SELECT domain, allow_subdomains FROM realm_domains WHERE realm_id = $1 ORDER BY domain`,
      [realmId],
    );
    return rows.map((r: { domain: string; allow_subdomains: boolean }) => ({
      domain: r.domain,
      allowSubdomains: r.allow_subdomains,
    }));
  }
}

@Injectable()
export class TypeOrmRealmQueries extends RealmQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async idByStringId(stringId: string): Promise<number | null> {
    const rows = await this.ds.query(`SELECT id FROM realms WHERE string_id = $1`, [stringId]);
    return rows.length > 0 ? rows[0].id : null;
  }

  get(realmId: number): Promise<RealmRecord> {
    return getRealm(this.ds.manager, realmId);
  }

  groupSettings(realmId: number): Promise<Record<string, GroupSettingValue>> {
    return readGroupSettings(this.ds.manager, realmId);
  }
}
