import type { EntityManager } from 'typeorm';
import type { ClientEvent } from '../application/client-event.js';

export const EVENTS_CHANNEL = 'svc_events';

/**
 * Appends a transaction's events to the journal just before COMMIT, in one statement whatever
 * their count and organizations: each row gets the next `id` and, by its column default, the
 * id of the writing transaction (`xid`). No lock: readers order by (xid, id) and read only below
 * the oldest transaction still running, so concurrent writers never wait for each other.
 * Listeners are told after COMMIT (JournalSignal), not by a NOTIFY in this transaction.
 */
export async function appendEvents(em: EntityManager, events: readonly ClientEvent[]): Promise<void> {
  await em.query(
    `WITH ins AS (
       INSERT INTO events (realm_id, payload)
       SELECT (x.p->>'realmId')::integer, x.p FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(p, ord) ORDER BY x.ord
       RETURNING 1)
     SELECT count(*) FROM ins`,
    [JSON.stringify(events)],
  );
}
