import { SettingsInvalidation } from '../../shared/application/settings-invalidation.js';
import type { Credentials } from './user.ports.js';

/** What API-key authentication reads of an account (never the password hash). */
export type ApiKeyCredentials = Omit<Credentials, 'deliveryEmail' | 'passwordHash' | 'passwordAuthEnabled'>;

/**
 * Per-process cache of the accounts API-key authentication looks up, by organization and email,
 * so that a repeated request sends no statement to authenticate. Never stale for longer than a
 * notification takes: the database notifies `svc_settings` with the organization id when an
 * account's key, email, bot type, role or activity changes or the account goes, when the
 * organization's row changes (deactivation) and with every new settings version (which an entry
 * carries); this process's own writes evict at commit (the unit of work). Only accounts that
 * exist are kept: a miss costs its statement, as without the cache. Bounded: least recently used
 * entries go first.
 */
export class CredentialCache extends SettingsInvalidation {
  /** Least recently used first. */
  private readonly entries = new Map<string, ApiKeyCredentials>();
  private readonly keysByRealm = new Map<number, Set<string>>();
  /** Loads under way, shared by concurrent misses of one key. */
  private readonly loading = new Map<string, { started: number; promise: Promise<ApiKeyCredentials | null> }>();
  /** Counts invalidations: a load is kept (or shared) only while its organization saw none since it started. */
  private generation = 0;
  private allInvalidatedAt = 0;
  private readonly realmInvalidatedAt = new Map<number, number>();

  constructor(private readonly maxEntries = 50_000) {
    super();
  }

  /** The cached account, or `load`'s (kept when it exists and nothing was invalidated meanwhile). */
  get(realmId: number, email: string, load: () => Promise<Credentials | null>): Promise<ApiKeyCredentials | null> {
    const key = cacheKey(realmId, email);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return Promise.resolve(hit);
    }
    const pending = this.loading.get(key);
    if (pending !== undefined && !this.invalidatedSince(realmId, pending.started)) return pending.promise;
    const started = this.generation;
    const done = () => this.loading.get(key)?.promise === promise && this.loading.delete(key);
    const promise = load().then(
      (c) => {
        done();
        if (c === null) return null;
        const kept = apiKeyCredentials(c);
        if (!this.invalidatedSince(realmId, started)) this.store(key, kept);
        return kept;
      },
      (err: unknown) => {
        done();
        throw err;
      },
    );
    this.loading.set(key, { started, promise });
    return promise;
  }

  changed(realmId: number): void {
    this.realmInvalidatedAt.set(realmId, ++this.generation);
    for (const key of this.keysByRealm.get(realmId) ?? []) this.entries.delete(key);
    this.keysByRealm.delete(realmId);
  }

  all(): void {
    this.allInvalidatedAt = ++this.generation;
    this.realmInvalidatedAt.clear();
    this.entries.clear();
    this.keysByRealm.clear();
  }

  /** How many accounts are cached (tests). */
  get size(): number {
    return this.entries.size;
  }

  private invalidatedSince(realmId: number, generation: number): boolean {
    return Math.max(this.allInvalidatedAt, this.realmInvalidatedAt.get(realmId) ?? 0) > generation;
  }

  private store(key: string, c: ApiKeyCredentials): void {
    this.entries.delete(key);
    this.entries.set(key, c);
    let keys = this.keysByRealm.get(c.realmId);
    if (keys === undefined) this.keysByRealm.set(c.realmId, (keys = new Set()));
    keys.add(key);
    if (this.entries.size > this.maxEntries) this.evict(this.entries.keys().next().value!);
  }

  private evict(key: string): void {
    const c = this.entries.get(key);
    if (c === undefined) return;
    this.entries.delete(key);
    const keys = this.keysByRealm.get(c.realmId);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByRealm.delete(c.realmId);
  }
}

/**
 * Only ASCII letters are folded, as PostgreSQL's lower() does in every common locale (some also
 * fold other letters): emails sharing a key always name one account; an account reached through
 * two spellings that only PostgreSQL folds alike is merely cached twice.
 */
function cacheKey(realmId: number, email: string): string {
  return `${realmId} ${email.replace(/[A-Z]+/g, (s) => s.toLowerCase())}`;
}

function apiKeyCredentials(c: Credentials): ApiKeyCredentials {
  return {
    userId: c.userId,
    realmId: c.realmId,
    email: c.email,
    apiKey: c.apiKey,
    role: c.role,
    isActive: c.isActive,
    isBot: c.isBot,
    botType: c.botType,
    realmDeactivated: c.realmDeactivated,
    settingsVersion: c.settingsVersion,
  };
}
