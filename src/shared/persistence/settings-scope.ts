import type { EntityManager } from 'typeorm';
import type { OrganizationSettingsCache, SettingsEntry, SettingsReader } from '../application/settings-cache.js';

/**
 * A statement that writes a table the settings cache reads (the tables the settings-version
 * triggers watch). Conservative: a false match only costs a cache bypass.
 */
const WRITES_SETTINGS =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?"?(?:realms|realm_group_settings|user_groups|user_group_members|user_group_subgroups|linkifiers|users|custom_profile_fields|realm_domains|code_playgrounds|realm_emoji|channel_folders|realm_user_defaults)"?(?!\w)/i;

export function writesSettings(sql: string): boolean {
  return WRITES_SETTINGS.test(sql);
}

/**
 * The settings cache as one transaction may use it. Readers announce the version they have
 * seen (`observe`); from then on the transaction's cached reads of that organization use the
 * entry of that version or newer. Once the transaction has written anything the cache reads,
 * it bypasses the cache (its own uncommitted changes must win, and must never be cached).
 */
export class TxSettingsScope {
  private readonly versions = new Map<number, number>();
  private wrote = false;

  constructor(private readonly cache: OrganizationSettingsCache) {}

  get wroteSettings(): boolean {
    return this.wrote;
  }

  /** Called for every statement the transaction sends. */
  statement(sql: string): void {
    if (!this.wrote && writesSettings(sql)) this.wrote = true;
  }

  observe(reader: SettingsReader | undefined): void {
    if (reader?.settingsVersion === undefined) return;
    const known = this.versions.get(reader.realmId);
    if (known === undefined || known < reader.settingsVersion) this.versions.set(reader.realmId, reader.settingsVersion);
  }

  /** The entry this transaction may read, or undefined (no version known, or settings written). */
  entry(realmId: number): SettingsEntry | undefined {
    if (this.wrote) return undefined;
    const version = this.versions.get(realmId);
    return version === undefined ? undefined : this.cache.at(realmId, version);
  }
}

const scopes = new WeakMap<EntityManager, TxSettingsScope>();

/**
 * Gives the unit of work's transaction its scope: every statement on the transaction's
 * connection is shown to it (to notice settings writes), and its repositories find it by their
 * EntityManager (`settingsEntry`).
 */
export function bindSettingsScope(em: EntityManager, scope: TxSettingsScope): void {
  scopes.set(em, scope);
  const runner = em.queryRunner;
  if (runner === undefined) return;
  const query = runner.query.bind(runner);
  runner.query = ((sql: string, ...rest: unknown[]) => {
    scope.statement(sql);
    return (query as (...a: unknown[]) => unknown)(sql, ...rest);
  }) as typeof runner.query;
}

/**
 * The cache entry a repository on `em` may read for this organization, after noting `reader`'s
 * version; undefined outside a unit of work, without a known version, or after a settings write.
 */
export function settingsEntry(em: EntityManager, realmId: number, reader?: SettingsReader): SettingsEntry | undefined {
  const scope = scopes.get(em);
  if (scope === undefined) return undefined;
  if (reader !== undefined && reader.realmId === realmId) scope.observe(reader);
  return scope.entry(realmId);
}

/** `load`'s answer, kept under `key` in the organization's cache entry when the transaction on `em` may use one (see `settingsEntry`). */
export function cachedSetting<T>(em: EntityManager, realmId: number, reader: SettingsReader | undefined, key: string, load: () => Promise<T>): Promise<T> {
  const entry = settingsEntry(em, realmId, reader);
  return entry ? entry.value(key, load) : load();
}

/** Whether the transaction on `em` has written settings (tests, and the unit of work's eviction). */
export function wroteSettings(em: EntityManager): boolean {
  return scopes.get(em)?.wroteSettings ?? false;
}
