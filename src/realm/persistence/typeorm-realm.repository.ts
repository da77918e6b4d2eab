import {
  REALM_PROPERTY_API_NAMES,
  type RealmChannelSettingChange,
  type RealmChannelSettingKey,
  type RealmImage,
  type RealmProperties,
  type RealmPropertyName,
} from '@app/domain/realm';
import type { GroupSettingValue } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OrganizationSettingsCache, type SettingsReader } from '../../shared/application/settings-cache.js';
import { GROUP_MEMBERS_SQL, GROUP_SUBGROUPS_SQL } from '../../shared/persistence/group-setting-values.js';
import { cachedSetting } from '../../shared/persistence/settings-scope.js';
import {
  type LinkifierRecord,
  type PlaygroundRecord,
  type RealmDomainRecord,
  RealmQueries,
  type RealmRecord,
  RealmRepository,
} from '../application/realm.ports.js';
import {
  LINKIFIER_COLUMNS,
  type LinkifierRow,
  PLAYGROUND_COLUMNS,
  type PlaygroundRow,
  toLinkifier,
  toPlayground,
} from './typeorm-realm-resources.repository.js';
import { camelRow } from '../../shared/persistence/rows.js';
import { RealmRow } from './realm.row.js';

const BOOTSTRAP_LOCK = 0x5ec0001;

/**
 * The organization's permission settings in one statement: a named group's id, or an anonymous
 * group's active direct members and subgroups (only those groups' members are read).
 */
async function readGroupSettings(em: EntityManager, realmId: number): Promise<Record<string, GroupSettingValue>> {
  const rows: { setting: string; group_id: number; members: number[] | null; subgroups: number[] | null }[] = await em.query(
    `SELECT s.setting, s.group_id,
       CASE WHEN g.id IS NOT NULL AND g.name IS NULL THEN ${GROUP_MEMBERS_SQL} END AS members,
       CASE WHEN g.id IS NOT NULL AND g.name IS NULL THEN ${GROUP_SUBGROUPS_SQL} END AS subgroups
     FROM realm_group_settings s LEFT JOIN user_groups g ON g.id = s.group_id
     WHERE s.realm_id = $1`,
    [realmId],
  );
  return Object.fromEntries(
    rows.map((r) => [r.setting, r.members === null ? r.group_id : { directMembers: r.members, directSubgroups: r.subgroups ?? [] }]),
  );
}

/** The realms row, and whether the organization has a web-public channel (server_settings' realm_web_public_access_enabled). */
const REALM_COLUMNS = `r.*, EXISTS (SELECT 1 FROM channels c WHERE c.realm_id = r.id AND c.is_web_public AND NOT c.is_archived) AS has_web_public_channels`;

/** A field name in snake_case, as its column is named (`nightLogoSource` → `night_logo_source`). */
type SnakeCase<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}` : S;

/**
 * A row of REALM_COLUMNS: a column per field of the record (same types: no column is a bigint
 * but the settings version), the settings version, and the scheduled deletion date.
 */
type RealmSqlRow = { [K in keyof RealmRecord as SnakeCase<K>]: RealmRecord[K] } & {
  /** bigint */
  settings_version: string;
  scheduled_deletion_date: Date | null;
};

/** The realms row (its settings version is the cache's business, not the record's). */
async function getRealm(em: EntityManager, realmId: number, forUpdate = false): Promise<RealmRecord> {
  const [row]: RealmSqlRow[] = await em.query(`SELECT ${REALM_COLUMNS} FROM realms r WHERE r.id = $1 ${forUpdate ? 'FOR UPDATE OF r' : ''}`, [realmId]);
  if (!row) throw new Error(`no realm ${realmId}`);
  return toRealmRecord(row).record;
}

function toRealmRecord(row: RealmSqlRow): { record: RealmRecord; version: number } {
  const { settings_version: version, ...rest } = row;
  return { record: Object.freeze(camelRow<RealmRecord>(rest)), version: Number(version) };
}

const CHANNEL_SETTING_COLUMNS: Readonly<Record<RealmChannelSettingKey, string>> = {
  moderationRequestChannelId: 'moderation_request_channel_id',
  newStreamAnnouncementsStreamId: 'new_stream_announcements_stream_id',
  signupAnnouncementsStreamId: 'signup_announcements_stream_id',
  updateAnnouncementsStreamId: 'update_announcements_stream_id',
};

const IMAGE_COLUMNS: Readonly<Record<RealmImage, string>> = { icon: 'icon', logo: 'logo', night_logo: 'night_logo' };

type DomainRow = { id: number; domain: string; allow_subdomains: boolean };
const toDomain = (r: DomainRow): RealmDomainRecord => ({ id: r.id, domain: r.domain, allowSubdomains: r.allow_subdomains });

/** Allowed domains in the order they were added (Zulip lists them unordered, which is id order in practice). */
async function listDomains(em: EntityManager, realmId: number): Promise<RealmDomainRecord[]> {
  const rows: DomainRow[] = await em.query(
    `SELECT id, domain, allow_subdomains FROM realm_domains WHERE realm_id = $1 ORDER BY id`,
    [realmId],
  );
  return rows.map(toDomain);
}

export class TypeOrmRealmRepository extends RealmRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lockForBootstrap(): Promise<void> {
    await this.em.query(`SELECT pg_advisory_xact_lock($1)`, [BOOTSTRAP_LOCK]);
  }

  async firstRealmId(): Promise<number | null> {
    const rows: { id: number }[] = await this.em.query(`SELECT id FROM realms ORDER BY id LIMIT 1`);
    return rows.length > 0 ? rows[0].id : null;
  }

  async insert(r: { stringId: string; name: string; dateCreated: Date }): Promise<number> {
    const result = await this.em.getRepository(RealmRow).insert(r);
    return result.identifiers[0].id as number;
  }

  get(realmId: number, reader?: SettingsReader): Promise<RealmRecord> {
    return cachedSetting(this.em, realmId, reader, 'realm', () => getRealm(this.em, realmId));
  }

  async groupSetting(realmId: number, setting: string, reader?: SettingsReader): Promise<GroupSettingValue> {
    const value = (await this.groupSettings(realmId, reader))[setting];
    if (value === undefined) throw new Error(`realm ${realmId} has no ${setting}`);
    return value;
  }

  groupSettings(realmId: number, reader?: SettingsReader): Promise<Record<string, GroupSettingValue>> {
    return cachedSetting(this.em, realmId, reader, 'groupSettings', () => readGroupSettings(this.em, realmId));
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

  domains(realmId: number): Promise<RealmDomainRecord[]> {
    return listDomains(this.em, realmId);
  }

  getForUpdate(realmId: number): Promise<RealmRecord> {
    return getRealm(this.em, realmId, true);
  }

  async updateProperties(realmId: number, changes: Partial<RealmProperties>): Promise<void> {
    const keys = Object.keys(changes) as RealmPropertyName[];
    if (keys.length === 0) return;
    // Column names come from the fixed property table, never from the request.
    const sets = keys.map((k, i) => `${REALM_PROPERTY_API_NAMES[k]} = $${i + 2}`);
    await this.em.query(`UPDATE realms SET ${sets.join(', ')} WHERE id = $1`, [realmId, ...keys.map((k) => changes[k])]);
  }

  async setChannelSettings(realmId: number, changes: readonly RealmChannelSettingChange[]): Promise<void> {
    if (changes.length === 0) return;
    // Column names come from the fixed setting table, never from the request.
    const sets = changes.map((c, i) => `${CHANNEL_SETTING_COLUMNS[c.key]} = $${i + 2}`);
    await this.em.query(`UPDATE realms SET ${sets.join(', ')} WHERE id = $1`, [realmId, ...changes.map((c) => c.channelId)]);
  }

  async changeImage(realmId: number, image: RealmImage, source: string): Promise<void> {
    // Column names come from the fixed image names, never from the request.
    const column = IMAGE_COLUMNS[image];
    await this.em.query(`UPDATE realms SET ${column}_source = $2, ${column}_version = ${column}_version + 1 WHERE id = $1`, [realmId, source]);
  }

  async findDomain(realmId: number, domain: string): Promise<RealmDomainRecord | null> {
    const rows: DomainRow[] = await this.em.query(
      `SELECT id, domain, allow_subdomains FROM realm_domains WHERE realm_id = $1 AND domain = $2 FOR UPDATE`,
      [realmId, domain],
    );
    return rows.length > 0 ? toDomain(rows[0]) : null;
  }

  async addDomain(realmId: number, domain: string, allowSubdomains: boolean): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO realm_domains (realm_id, domain, allow_subdomains) VALUES ($1, $2, $3) RETURNING id`,
      [realmId, domain, allowSubdomains],
    );
    return row.id;
  }

  async setDomainAllowSubdomains(domainId: number, allowSubdomains: boolean): Promise<void> {
    await this.em.query(`UPDATE realm_domains SET allow_subdomains = $2 WHERE id = $1`, [domainId, allowSubdomains]);
  }

  async removeDomain(domainId: number): Promise<void> {
    await this.em.query(`DELETE FROM realm_domains WHERE id = $1`, [domainId]);
  }

  async countDomains(realmId: number): Promise<number> {
    const [row]: { n: number }[] = await this.em.query(`SELECT count(*)::int AS n FROM realm_domains WHERE realm_id = $1`, [realmId]);
    return row.n;
  }
}

@Injectable()
export class TypeOrmRealmQueries extends RealmQueries {
  constructor(
    private readonly ds: DataSource,
    private readonly cache: OrganizationSettingsCache,
  ) {
    super();
  }

  async idByStringId(stringId: string): Promise<number | null> {
    const rows: { id: number }[] = await this.ds.query(`SELECT id FROM realms WHERE string_id = $1`, [stringId]);
    return rows.length > 0 ? rows[0].id : null;
  }

  get(realmId: number): Promise<RealmRecord> {
    return getRealm(this.ds.manager, realmId);
  }

  getForVisitor(realmId: number): Promise<RealmRecord> {
    return this.cache.loadCurrent(realmId, 'realm', async () => {
      const [row]: RealmSqlRow[] = await this.ds.query(`SELECT ${REALM_COLUMNS} FROM realms r WHERE r.id = $1`, [realmId]);
      if (!row) throw new Error(`no realm ${realmId}`);
      const { record, version } = toRealmRecord(row);
      return { version, value: record };
    });
  }

  groupSettings(realmId: number): Promise<Record<string, GroupSettingValue>> {
    return readGroupSettings(this.ds.manager, realmId);
  }

  domains(realmId: number): Promise<RealmDomainRecord[]> {
    return listDomains(this.ds.manager, realmId);
  }

  async linkifiers(realmId: number): Promise<LinkifierRecord[]> {
    const rows: LinkifierRow[] = await this.ds.query(
      `SELECT ${LINKIFIER_COLUMNS} FROM linkifiers WHERE realm_id = $1 ORDER BY "order", id`,
      [realmId],
    );
    return rows.map(toLinkifier);
  }

  async playgrounds(realmId: number): Promise<PlaygroundRecord[]> {
    const rows: PlaygroundRow[] = await this.ds.query(`SELECT ${PLAYGROUND_COLUMNS} FROM code_playgrounds WHERE realm_id = $1 ORDER BY id`, [
      realmId,
    ]);
    return rows.map(toPlayground);
  }
}
