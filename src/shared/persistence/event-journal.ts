import type { EntityManager } from 'typeorm';
import type { ClientEvent } from '../application/client-event.js';

export const EVENTS_CHANNEL = 'svc_events';

/**
 * Appends a transaction's events to the journal just before COMMIT, in one statement whatever
 * their count and organizations: each row gets the next `id` and, by its column default, the
 * id of the writing transaction (`xid`). No lock: readers order by (xid, id) and read only below
 * the oldest transaction still running, so concurrent writers never wait for each other. The
 * NOTIFY (empty payload: it only says "read the journal") is delivered if and when the
 * transaction commits.
 */
export async function appendEvents(em: EntityManager, events: readonly ClientEvent[]): Promise<void> {
  await em.query(
    `WITH ins AS (
       INSERT INTO events (realm_id, payload)
       SELECT (x.p->>'realmId')::integer, x.p FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(p, ord) ORDER BY x.ord
       RETURNING 1)
     SELECT pg_notify($2, '') FROM (SELECT count(*) FROM ins) AS done`,
    [JSON.stringify(events), EVENTS_CHANNEL],
  );
}
