import { Injectable, Optional } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ClientEvent } from '../shared/application/client-event.js';
import { OrganizationSettingsCache } from '../shared/application/settings-cache.js';
import { type Tx, type TxRepositories, UnitOfWork } from '../shared/application/unit-of-work.js';
import { appendEvents } from '../shared/persistence/event-journal.js';
import { JournalSignal } from '../shared/persistence/journal-signal.js';
import { CredentialCache } from '../users/application/credential-cache.js';
import { bindSettingsScope, TxSettingsScope } from '../shared/persistence/settings-scope.js';
import { insideTransaction } from './connection-guard.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { TRANSACTION_CONTRIBUTIONS } from './transaction-contributions.js';

/** Unique constraint → the error of the rule it protects, from every context. */
const UNIQUE_VIOLATIONS = new Map(TRANSACTION_CONTRIBUTIONS.flatMap((c) => Object.entries(('uniqueViolations' in c && c.uniqueViolations) || {})));

/**
 * One database transaction per use case. Repositories are built on the transaction's
 * EntityManager, so nothing inside `work` can slip onto the pool; events are handed to the
 * journal inside the transaction, so clients see them exactly when they commit; listeners are
 * told after COMMIT (JournalSignal).
 * Each transaction reads the settings cache through its own scope; one that wrote settings
 * (users and realms among them) invalidates this process's caches of organization data once it
 * has committed: its cached settings are no longer current (read-your-writes for readers without
 * a version), its cached credentials are dropped (the next request sees a new API key, role,
 * deactivation or settings version). Which organization it wrote is unknown here, hence all;
 * other servers learn it, by organization, from the notification.
 * While `work` runs, the request holds the transaction's connection and asks the pool for no
 * other (`insideTransaction`; a nested `run` would open a second transaction and is caught too).
 */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(
    private readonly ds: DataSource,
    private readonly settings: OrganizationSettingsCache,
    private readonly journal: JournalSignal,
    @Optional() private readonly metrics?: ServerMetrics,
    @Optional() private readonly credentials?: CredentialCache,
  ) {
    super();
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const scope = new TxSettingsScope(this.settings);
    let journaled = false;
    let messages = 0;
    try {
      const out = await this.ds
        .transaction((em) =>
          insideTransaction(this.ds, async () => {
            bindSettingsScope(em, scope);
            const pending: ClientEvent[] = [];
            const tx: Tx = { ...repositoriesOn(em), afterCommit: (events) => pending.push(...events) };
            const out = await work(tx);
            if (pending.length > 0) await appendEvents(em, pending);
            journaled = pending.length > 0;
            messages = messagesIn(pending);
            return out;
          }),
        )
        .catch(translateConstraintViolation);
      if (journaled) this.journal.committed();
      this.metrics?.messageCommitted(messages);
      return out;
    } finally {
      // Also after a failed COMMIT: whether it took effect is unknown, so assume it did.
      if (scope.wroteSettings) {
        this.settings.all();
        this.credentials?.all();
      }
    }
  }

  /** The repositories on an entity manager of no query runner: each statement takes a pooled connection (reads only). */
  async read<T>(work: (repositories: TxRepositories) => Promise<T>): Promise<T> {
    const em = this.ds.createEntityManager();
    bindSettingsScope(em, new TxSettingsScope(this.settings));
    return work(repositoriesOn(em));
  }
}

/** Messages among a transaction's events: one `message` event per message (a new message, a scheduled one delivered). */
function messagesIn(events: readonly ClientEvent[]): number {
  return new Set(events.filter((e) => e.event.type === 'message').map((e) => (e.event.message as { id?: unknown } | undefined)?.id)).size;
}

function repositoriesOn(em: EntityManager): TxRepositories {
  return Object.assign({}, ...TRANSACTION_CONTRIBUTIONS.map((c) => c.repositories(em))) as TxRepositories;
}

/** A unique violation that a concurrent request won is reported like the rule it protects. */
function translateConstraintViolation(e: unknown): never {
  type PgError = { code?: string; constraint?: string; detail?: string };
  const err = ((e as { driverError?: PgError }).driverError ?? e) as PgError;
  const rule = err.code === '23505' ? UNIQUE_VIOLATIONS.get(err.constraint ?? '') : undefined;
  if (rule !== undefined) {
    // detail: Key (realm_id, name)=(1, devs) already exists.
    throw rule(/=\(\d+, (.*)\) already exists/.exec(err.detail ?? '')?.[1] ?? '');
  }
  throw e;
}
