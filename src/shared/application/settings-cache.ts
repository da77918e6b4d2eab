import { SettingsInvalidation } from './settings-invalidation.js';

/** Who reads an organization's settings, and which version of them it has seen (an Actor is one). */
export interface SettingsReader {
  readonly realmId: number;
  readonly settingsVersion?: number;
}

/**
 * The cached settings of one organization at one version (`realms.settings_version`, bumped by
 * database triggers whenever anything cached here changes). Values are loaded lazily, each once
 * (concurrent readers share the load), by the adapter that knows how.
 */
export class SettingsEntry {
  readonly values = new Map<string, Promise<unknown>>();
  /** Each user's groups (through subgroups), least recently used first; shared: never modify them. */
  readonly memberships = new Map<number, Promise<Set<number>>>();
  /**
   * Whether readers that know no version (unauthenticated ones) may use it: set by such a
   * read, cleared by every invalidation of the organization.
   */
  current = false;

  constructor(
    readonly version: number,
    private readonly maxMemberships: number,
  ) {}

  /**
   * The cached value, or `load`'s (kept). A load another transaction started may fail for reasons
   * of that transaction (it was aborted): the caller then loads on its own.
   */
  value<T>(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.values.get(key) as Promise<T> | undefined;
    if (cached !== undefined) return cached.catch(load);
    const p = load();
    this.values.set(key, p);
    p.catch(() => this.values.get(key) === p && this.values.delete(key));
    return p;
  }

  groupsOf(userId: number, load: () => Promise<Set<number>>): Promise<Set<number>> {
    let p = this.memberships.get(userId);
    if (p !== undefined) {
      this.memberships.delete(userId);
      this.memberships.set(userId, p);
      return p.catch(load);
    }
    p = load();
    this.memberships.set(userId, p);
    p.catch(() => this.memberships.get(userId) === p && this.memberships.delete(userId));
    if (this.memberships.size > this.maxMemberships) this.memberships.delete(this.memberships.keys().next().value!);
    return p;
  }
}

/**
 * Per-process cache of organization settings and group membership, never stale: a reader that
 * knows the organization's settings version (authenticated requests learn it from the auth
 * query) only gets an entry of that version or newer; a reader that knows none gets an entry
 * only while no change notification (`svc_settings`) nor local settings write arrived since it
 * was loaded. Bounded: least recently used organizations go first.
 */
export class OrganizationSettingsCache extends SettingsInvalidation {
  private readonly entries = new Map<number, SettingsEntry>();
  /** Bumped by every invalidation: a load that started before one is not trusted as current. */
  private generation = 0;

  constructor(
    private readonly maxOrganizations = 256,
    private readonly maxMembershipsPerOrganization = 10_000,
  ) {
    super();
  }

  /** The entry for readers that have seen `version`: the cached one if it is at least as new, else a fresh one. */
  at(realmId: number, version: number): SettingsEntry {
    const cached = this.entries.get(realmId);
    if (cached !== undefined && cached.version >= version) {
      this.touch(realmId, cached);
      return cached;
    }
    const entry = new SettingsEntry(version, this.maxMembershipsPerOrganization);
    this.touch(realmId, entry);
    return entry;
  }

  /** The entry readers without a version may use, if there is one. */
  current(realmId: number): SettingsEntry | undefined {
    const cached = this.entries.get(realmId);
    return cached?.current ? cached : undefined;
  }

  /**
   * Loads what a reader without a version needs (`load` answers the version it read in the
   * same statement) and keeps it as current unless an invalidation arrived meanwhile.
   */
  async loadCurrent<T>(realmId: number, key: string, load: () => Promise<{ version: number; value: T }>): Promise<T> {
    const hit = this.current(realmId);
    if (hit?.values.has(key)) return hit.values.get(key) as Promise<T>;
    const generation = this.generation;
    const { version, value } = await load();
    if (generation === this.generation) {
      const entry = this.at(realmId, version);
      if (entry.version === version) {
        if (!entry.values.has(key)) entry.values.set(key, Promise.resolve(value));
        entry.current = true;
      }
    }
    return value;
  }

  changed(realmId: number): void {
    this.generation += 1;
    const cached = this.entries.get(realmId);
    if (cached !== undefined) cached.current = false;
  }

  all(): void {
    this.generation += 1;
    for (const entry of this.entries.values()) entry.current = false;
  }

  /** How many organizations are cached (tests). */
  get size(): number {
    return this.entries.size;
  }

  private touch(realmId: number, entry: SettingsEntry): void {
    this.entries.delete(realmId);
    this.entries.set(realmId, entry);
    if (this.entries.size > this.maxOrganizations) this.entries.delete(this.entries.keys().next().value!);
  }
}
