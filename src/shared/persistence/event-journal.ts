import type { EntityManager } from 'typeorm';
import type { ClientEvent } from '../application/client-event.js';

export const EVENTS_CHANNEL = 'svc_events';
const EVENTS_LOCK = 0x5ec0003;

/**
 * Appends a transaction's events to the journal just before COMMIT: numbered per organization
 * under a transaction lock (so sequence order is commit order), then NOTIFY, which PostgreSQL
 * delivers only if and when the transaction commits. Three statements, whatever the count.
 */
export async function appendEvents(em: EntityManager, events: readonly ClientEvent[]): Promise<void> {
  const byRealm = new Map<number, ClientEvent[]>();
  for (const e of events) byRealm.set(e.realmId, [...(byRealm.get(e.realmId) ?? []), e]);
  for (const [realmId, list] of byRealm) {
    await em.query(`SELECT pg_advisory_xact_lock($1, $2)`, [EVENTS_LOCK, realmId]);
    await em.query(
      `INSERT INTO events (realm_id, seq, payload)
       SELECT $1, base.n + x.ord, x.p
       FROM (SELECT coalesce(max(seq), 0) AS n FROM events WHERE realm_id = $1) AS base,
            jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(p, ord)`,
      [realmId, JSON.stringify(list)],
    );
    await em.query(`SELECT pg_notify($1, $2)`, [EVENTS_CHANNEL, String(realmId)]);
  }
}
