import {
  announcesPresence,
  fetchedLastUpdateId,
  hiddenPresenceTime,
  parsePresenceStatus,
  planPresenceUpdate,
  presenceEventWanted,
  presenceFetch,
  type PresenceStatus,
  shownPresence,
} from '@app/domain/presence';
import { badRequest } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { RealmQueries } from '../../realm/index.js';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { presenceEvent } from './presence.events.js';
import { PresenceQueries, type PresenceRow, PresenceUsers } from './presence.ports.js';
import { presentLegacyPresence, presentModernPresence, presentSingleUserPresence } from './presence.views.js';

/** POST /users/me/presence as decoded. */
export interface PresenceReport {
  status: string;
  pingOnly: boolean;
  slimPresence: boolean;
  lastUpdateId: number | null;
  historyLimitDays: number | null;
}

/** What to fetch of the organization's presence (also POST /register's `presences`). */
export interface PresenceFetchOptions {
  slim: boolean;
  lastUpdateId: number | null;
  historyLimitDays: number | null;
  /** The organization's presence_disabled, when the caller has it already (else it is read). */
  realmPresenceDisabled?: boolean;
}

export interface RealmPresences {
  presences: Record<string, unknown>;
  server_timestamp: number;
  presence_last_update_id: number;
}

/** Python's int(): optional sign, digits with single underscores between, surrounding whitespace. */
const PYTHON_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/** User presence (Zulip's zerver/views/presence.py, zerver/actions/presence.py, zerver/lib/presence.py). */
@Injectable()
export class PresenceService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: PresenceQueries,
    private readonly users: PresenceUsers,
    private readonly realms: RealmQueries,
    private readonly clock: Clock,
  ) {}

  /** POST /users/me/presence: records the report, then (unless ping_only) answers with everyone's presence. */
  async reportPresence(actor: Actor, r: PresenceReport): Promise<RealmPresences | Record<string, never>> {
    const status = parsePresenceStatus(r.status);
    const now = this.clock.now();
    await this.uow.run((tx) => this.record(tx, actor.realmId, actor.userId, status, now, { force: false }));
    if (r.pingOnly) return {};
    // A client that sends last_update_id speaks the modern protocol.
    return this.realmPresences(actor, { slim: r.slimPresence || r.lastUpdateId !== null, lastUpdateId: r.lastUpdateId, historyLimitDays: r.historyLimitDays });
  }

  /**
   * Zulip's do_update_user_presence within the caller's transaction. Reports of users with
   * presence_enabled off change nothing, unless forced (the setting itself changing).
   */
  async record(tx: Tx, realmId: number, userId: number, status: PresenceStatus, at: Date, o: { force: boolean }): Promise<void> {
    const facts = await tx.presence.lockFacts(realmId, userId);
    if (facts === null || (!facts.presenceEnabled && !o.force)) return;
    const plan = planPresenceUpdate(facts.current, status, at);
    if (plan.write === null) return;
    const stored = await tx.presence.write(realmId, userId, plan.write, plan.creating);
    // A concurrent request created the row first: it announces it.
    if (!stored) return;
    if (!announcesPresence(plan, { force: o.force, realmPresenceDisabled: facts.realmPresenceDisabled })) return;
    if (!presenceEventWanted(o.force ? 0 : await tx.presence.activeUserCount(realmId), o.force)) return;
    tx.afterCommit([presenceEvent(realmId, { id: userId, email: facts.email }, shownPresence(plan.write, facts.dateJoined), this.clock.now())]);
  }

  /**
   * presence_enabled changed (Zulip's do_change_user_setting): on, the user is active now; off,
   * their presence starts over from one idle report old enough to show them offline. Either way
   * everyone hears it at once.
   */
  async presenceSettingChanged(tx: Tx, realmId: number, userId: number, enabled: boolean): Promise<void> {
    const now = this.clock.now();
    if (enabled) return this.record(tx, realmId, userId, 'active', now, { force: true });
    await tx.presence.delete(realmId, userId);
    await this.record(tx, realmId, userId, 'idle', hiddenPresenceTime(now), { force: true });
  }

  /** The organization's presence (empty when it has presence off), in the legacy or modern format. */
  async realmPresences(actor: Actor, o: PresenceFetchOptions): Promise<RealmPresences> {
    const now = this.clock.now();
    const serverTimestamp = now.getTime() / 1000;
    const disabled = o.realmPresenceDisabled ?? (await this.realms.get(actor.realmId)).presenceDisabled;
    if (disabled) return { presences: {}, server_timestamp: serverTimestamp, presence_last_update_id: -1 };
    const fetch = presenceFetch(now, o.historyLimitDays, o.lastUpdateId);
    const rows = fetch.none ? [] : await this.queries.realmPresences(actor.realmId, fetch);
    return {
      presences: presentPresences(rows, o.slim),
      server_timestamp: serverTimestamp,
      presence_last_update_id: fetchedLastUpdateId(
        rows.map((r) => r.lastUpdateId),
        o.lastUpdateId,
      ),
    };
  }

  /** GET /users/{user_id_or_email}/presence: an active human's presence, in the legacy format. */
  async userPresence(actor: Actor, userIdOrEmail: string) {
    const key: { id: number } | { email: string } = PYTHON_INT.test(userIdOrEmail) ? { id: Number(userIdOrEmail.replaceAll('_', '')) } : { email: userIdOrEmail };
    const target = 'id' in key && !isStorableId(key.id) ? null : await this.users.activeUser(actor.realmId, key);
    if (target === null) throw badRequest('No such user');
    if (target.isBot) throw badRequest('Presence is not supported for bot users.');
    const row = await this.queries.userPresence(actor.realmId, target.id);
    if (row === null) throw badRequest(`No presence data for ${userIdOrEmail}`);
    return { presence: presentSingleUserPresence(shownPresence(row, row.dateJoined), this.clock.now()) };
  }
}

/** Keyed by user id (modern) or by API email (legacy). */
function presentPresences(rows: readonly PresenceRow[], slim: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    const p = shownPresence(r, r.dateJoined);
    if (slim) out[String(r.userId)] = presentModernPresence(p);
    else out[r.email] = presentLegacyPresence(p);
  }
  return out;
}
