import type { DevicePushState, PushTokenKind } from '@app/domain/push';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returnedRows } from '../../shared/persistence/rows.js';
import { type ActivePushDevice, type LegacyPushToken, PushDeviceRepository, PushQueries, type RegistrationJob } from '../application/push.ports.js';

/** A `devices` row read with DEVICE_COLUMNS: node-postgres returns int8 as a decimal string and bytea as a Buffer. */
interface DeviceRow {
  id: number;
  user_id: number;
  push_key: Buffer | null;
  push_key_id: string | null;
  push_token_kind: PushTokenKind | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: Date | null;
  push_registration_error_code: string | null;
}

const DEVICE_COLUMNS = `id, user_id, push_key, push_key_id, push_token_kind, push_token_id, pending_push_token_id,
  push_token_last_updated_timestamp, push_registration_error_code`;

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));
const bigParam = (v: bigint | null): string | null => (v === null ? null : v.toString());

function toState(r: DeviceRow): DevicePushState & { userId: number } {
  return {
    id: r.id,
    userId: r.user_id,
    pushKey: r.push_key === null ? null : new Uint8Array(r.push_key),
    pushKeyId: r.push_key_id === null ? null : Number(r.push_key_id),
    tokenKind: r.push_token_kind,
    pushTokenId: big(r.push_token_id),
    pendingPushTokenId: big(r.pending_push_token_id),
    tokenUpdatedAt: r.push_token_last_updated_timestamp,
    errorCode: r.push_registration_error_code,
  };
}

/** A `push_registration_jobs` row read with JOB_COLUMNS (id is int8: a decimal string; lease_token a uuid as text). */
interface JobRow {
  id: string;
  realm_id: number;
  device_id: number;
  token_id: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
  attempts: number;
  queued_at: Date;
  lease_token: string | null;
}

const JOB_COLUMNS = `id, realm_id, device_id, token_id, bouncer_public_key, encrypted_push_registration, attempts, queued_at, lease_token`;

const toJob = (r: JobRow): RegistrationJob => ({
  id: r.id,
  realmId: r.realm_id,
  deviceId: r.device_id,
  registration: { tokenId: r.token_id, bouncerPublicKey: r.bouncer_public_key, encryptedPushRegistration: r.encrypted_push_registration },
  attempts: r.attempts,
  queuedAt: r.queued_at,
  leaseToken: r.lease_token,
});

export class TypeOrmPushDeviceRepository extends PushDeviceRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async createDevice(realmId: number, userId: number, now: Date): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(`INSERT INTO devices (realm_id, user_id, date_created) VALUES ($1, $2, $3) RETURNING id`, [
      realmId,
      userId,
      now,
    ]);
    return row.id;
  }

  async deleteDevice(realmId: number, userId: number, deviceId: number): Promise<boolean> {
    // Its queued registration goes with it (ON DELETE CASCADE).
    const rows = returnedRows<{ id: number }>(
      await this.em.query(`DELETE FROM devices WHERE realm_id = $1 AND user_id = $2 AND id = $3 RETURNING id`, [realmId, userId, deviceId]),
    );
    return rows.length > 0;
  }

  async lockDevice(realmId: number, userId: number, deviceId: number): Promise<DevicePushState | null> {
    const [row]: DeviceRow[] = await this.em.query(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE realm_id = $1 AND user_id = $2 AND id = $3 FOR UPDATE`, [
      realmId,
      userId,
      deviceId,
    ]);
    return row === undefined ? null : toState(row);
  }

  async lockDeviceById(realmId: number, deviceId: number): Promise<(DevicePushState & { userId: number }) | null> {
    const [row]: DeviceRow[] = await this.em.query(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [realmId, deviceId]);
    return row === undefined ? null : toState(row);
  }

  async saveDevicePush(realmId: number, s: DevicePushState): Promise<void> {
    await this.em.query(
      `UPDATE devices SET push_key = $3, push_key_id = $4, push_token_kind = $5, push_token_id = $6, pending_push_token_id = $7,
         push_token_last_updated_timestamp = $8, push_registration_error_code = $9
       WHERE realm_id = $1 AND id = $2`,
      [
        realmId,
        s.id,
        s.pushKey === null ? null : Buffer.from(s.pushKey),
        s.pushKeyId,
        s.tokenKind,
        bigParam(s.pushTokenId),
        bigParam(s.pendingPushTokenId),
        s.tokenUpdatedAt,
        s.errorCode,
      ],
    );
  }

  async queueRegistration(
    realmId: number,
    deviceId: number,
    r: { tokenId: string; bouncerPublicKey: string; encryptedPushRegistration: string },
    now: Date,
  ): Promise<string> {
    await this.em.query(`DELETE FROM push_registration_jobs WHERE realm_id = $1 AND device_id = $2`, [realmId, deviceId]);
    const [row]: { id: string }[] = await this.em.query(
      `INSERT INTO push_registration_jobs (realm_id, device_id, token_id, bouncer_public_key, encrypted_push_registration, queued_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
      [realmId, deviceId, r.tokenId, r.bouncerPublicKey, r.encryptedPushRegistration, now],
    );
    return row.id;
  }

  async lockJob(realmId: number, jobId: string): Promise<RegistrationJob | null> {
    const [row]: JobRow[] = await this.em.query(`SELECT ${JOB_COLUMNS} FROM push_registration_jobs WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [
      realmId,
      jobId,
    ]);
    return row === undefined ? null : toJob(row);
  }

  async deleteJob(realmId: number, jobId: string): Promise<void> {
    await this.em.query(`DELETE FROM push_registration_jobs WHERE realm_id = $1 AND id = $2`, [realmId, jobId]);
  }

  async rescheduleJob(realmId: number, jobId: string, attempts: number, nextAttemptAt: Date): Promise<void> {
    await this.em.query(`UPDATE push_registration_jobs SET attempts = $3, next_attempt_at = $4 WHERE realm_id = $1 AND id = $2`, [
      realmId,
      jobId,
      attempts,
      nextAttemptAt,
    ]);
  }

  async dropRegistrations(realmId: number, userId: number, pushTokenIds: readonly bigint[]): Promise<void> {
    if (pushTokenIds.length === 0) return;
    const ids = returnedRows<{ id: number }>(
      await this.em.query(
        `UPDATE devices SET push_key = NULL, push_key_id = NULL, push_token_kind = NULL, push_token_id = NULL, pending_push_token_id = NULL,
           push_token_last_updated_timestamp = NULL, push_registration_error_code = NULL
         WHERE realm_id = $1 AND user_id = $2 AND push_token_id = ANY($3::bigint[]) RETURNING id`,
        [realmId, userId, pushTokenIds.map((n) => n.toString())],
      ),
    ).map((r) => r.id);
    if (ids.length > 0) {
      await this.em.query(`DELETE FROM push_registration_jobs WHERE realm_id = $1 AND device_id = ANY($2::int[])`, [realmId, ids]);
    }
  }

  async addLegacyToken(o: { realmId: number; userId: number; kind: number; token: string; iosAppId: string | null; now: Date }): Promise<void> {
    await this.em.query(
      `INSERT INTO push_device_tokens (realm_id, user_id, kind, token, ios_app_id, last_updated) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [o.realmId, o.userId, o.kind, o.token, o.iosAppId, o.now],
    );
  }

  async removeLegacyToken(realmId: number, userId: number, kind: number, token: string): Promise<boolean> {
    // APNs tokens are hex, compared case-insensitively (Zulip's Lower("token") lookup).
    const match = kind === 1 ? 'lower(token) = lower($4)' : 'token = $4';
    const rows = returnedRows<{ id: number }>(
      await this.em.query(`DELETE FROM push_device_tokens WHERE realm_id = $1 AND user_id = $2 AND kind = $3 AND ${match} RETURNING id`, [
        realmId,
        userId,
        kind,
        token,
      ]),
    );
    return rows.length > 0;
  }
}

@Injectable()
export class TypeOrmPushQueries extends PushQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async legacyTokens(realmId: number, userId: number, token: string | null): Promise<LegacyPushToken[]> {
    const rows: { token: string; kind: number; ios_app_id: string | null }[] = await this.ds.query(
      `SELECT token, kind, ios_app_id FROM push_device_tokens
       WHERE realm_id = $1 AND user_id = $2 AND ($3::text IS NULL OR token = $3)
       ORDER BY id`,
      [realmId, userId, token],
    );
    return rows.map((r) => ({ token: r.token, kind: r.kind, iosAppId: r.ios_app_id }));
  }

  async activeDevices(realmId: number, userId: number, deviceId: number | null): Promise<ActivePushDevice[]> {
    const rows: DeviceRow[] = await this.ds.query(
      `SELECT ${DEVICE_COLUMNS} FROM devices
       WHERE realm_id = $1 AND user_id = $2 AND push_token_id IS NOT NULL AND ($3::int IS NULL OR id = $3)
       ORDER BY id`,
      [realmId, userId, deviceId],
    );
    return rows.map((r) => ({
      deviceId: r.id,
      pushTokenId: BigInt(r.push_token_id!),
      tokenKind: r.push_token_kind!,
      pushKey: new Uint8Array(r.push_key!),
      pushKeyId: Number(r.push_key_id),
    }));
  }

  async realmIdentity(realmId: number): Promise<{ uuid: string; stringId: string; name: string }> {
    const [row]: { uuid: string; string_id: string; name: string }[] = await this.ds.query(`SELECT uuid, string_id, name FROM realms WHERE id = $1`, [realmId]);
    return { uuid: row.uuid, stringId: row.string_id, name: row.name };
  }

  async claimDueJobs(o: { now: Date; leaseUntil: Date; limit: number; jobId?: string }): Promise<RegistrationJob[]> {
    const rows = returnedRows<JobRow>(
      await this.ds.query(
        `UPDATE push_registration_jobs SET next_attempt_at = $2, lease_token = gen_random_uuid()
         WHERE id IN (
           SELECT id FROM push_registration_jobs
           WHERE next_attempt_at <= $1 AND ($4::bigint IS NULL OR id = $4)
           ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING ${JOB_COLUMNS}`,
        [o.now, o.leaseUntil, o.limit, o.jobId ?? null],
      ),
    );
    return rows.map(toJob).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  }
}
