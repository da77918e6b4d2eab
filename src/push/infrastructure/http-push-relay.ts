import type { RelayFailure, RelayRegistration, RelayResult } from '@app/domain/push';
import { Injectable } from '@nestjs/common';
import { ServerConfig, SVC_VERSION } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { type LegacyTestNotification, PushRelay, type RelayNotifyResponse } from '../application/push.ports.js';
import { parseWithBigInts, stringifyWithBigInts } from './relay-json.js';

type Reply = { status: number; body: unknown };

/**
 * The push relay over HTTP, as zerver/lib/remote_server.py send_to_push_bouncer talks to it:
 * `<PUSH_BOUNCER_URL>/api/v1/remotes/<endpoint>`, HTTP Basic auth with this server's
 * registration (PUSH_BOUNCER_SERVER_UUID / PUSH_BOUNCER_API_KEY), one attempt per call with
 * PUSH_BOUNCER_TIMEOUT_MS, redirects not followed. Retrying is the callers' decision.
 */
@Injectable()
export class HttpPushRelay extends PushRelay {
  constructor(
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
  ) {
    super();
  }

  async registerDevice(realmUuid: string, r: RelayRegistration): Promise<RelayResult<void>> {
    // A form body, as Zulip posts a dict to this endpoint.
    const body = new URLSearchParams({
      realm_uuid: realmUuid,
      token_id: r.tokenId,
      encrypted_push_registration: r.encryptedPushRegistration,
      bouncer_public_key: r.bouncerPublicKey,
    });
    const reply = await this.post('push/e2ee/register', body, 'application/x-www-form-urlencoded');
    return 'failure' in reply ? { ok: false, failure: reply.failure } : { ok: true, value: undefined };
  }

  async notify(realmUuid: string, pushRequests: readonly Record<string, unknown>[]): Promise<RelayResult<RelayNotifyResponse>> {
    const body = stringifyWithBigInts({ realm_uuid: realmUuid, push_requests: pushRequests });
    const reply = await this.post('push/e2ee/notify', body, 'application/json');
    if ('failure' in reply) return { ok: false, failure: reply.failure };
    return { ok: true, value: { deleteDeviceIds: deviceIds((reply.body as { delete_device_ids?: unknown }).delete_device_ids) } };
  }

  async sendLegacyTestNotification(r: LegacyTestNotification): Promise<RelayResult<void>> {
    // JSON, as Zulip's send_json_to_push_bouncer posts it. This server keeps no user UUIDs, so
    // the user is named by id only (the relay accepts either).
    const body = JSON.stringify({
      realm_uuid: r.realmUuid,
      user_id: r.userId,
      token: r.token,
      token_kind: r.tokenKind,
      base_payload: r.basePayload,
    });
    const reply = await this.post('push/test_notification', body, 'application/json');
    return 'failure' in reply ? { ok: false, failure: reply.failure } : { ok: true, value: undefined };
  }

  private async post(endpoint: string, body: string | URLSearchParams, contentType: string): Promise<Reply | { failure: RelayFailure }> {
    const failed = (failure: RelayFailure) => {
      this.logger.warn({ endpoint, failure }, 'push relay request failed');
      return { failure };
    };
    const base = this.config.pushBouncerUrl;
    const { pushBouncerServerUuid: id, pushBouncerApiKey: key } = this.config;
    if (base === undefined || id === undefined || key === undefined) {
      this.logger.error({ endpoint }, 'push relay credentials missing: set PUSH_BOUNCER_URL, PUSH_BOUNCER_SERVER_UUID and PUSH_BOUNCER_API_KEY');
      return { failure: { kind: 'not_configured' } };
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(new URL(`/api/v1/remotes/${endpoint}`, base), {
        method: 'POST',
        headers: {
          'Content-Type': contentType,
          'User-Agent': `SvcServer/${SVC_VERSION}`,
          Authorization: `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.pushBouncerTimeoutMs),
      });
      text = await res.text();
    } catch (e) {
      return failed({ kind: 'unreachable', detail: describe(e) });
    }
    if (res.status >= 500) return failed({ kind: 'server_error', status: res.status });
    const parsed = parseBody(text);
    if (res.status >= 400) {
      const err = parsed as { msg?: unknown; code?: unknown } | undefined;
      if (err === undefined || typeof err !== 'object' || err === null || typeof err.msg !== 'string') {
        return failed({ kind: 'unexpected', status: res.status });
      }
      return failed({ kind: 'refused', status: res.status, code: typeof err.code === 'string' ? err.code : null, msg: err.msg });
    }
    if (res.status !== 200 || parsed === undefined || typeof parsed !== 'object' || parsed === null) {
      return failed({ kind: 'unexpected', status: res.status });
    }
    return { status: res.status, body: parsed };
  }
}

function parseBody(text: string): unknown {
  try {
    return parseWithBigInts(text);
  } catch {
    return undefined;
  }
}

/** `delete_device_ids`: integers, possibly beyond 2^53 (then read losslessly as strings). */
function deviceIds(v: unknown): bigint[] {
  if (!Array.isArray(v)) return [];
  const out: bigint[] = [];
  for (const x of v) {
    if ((typeof x === 'number' && Number.isSafeInteger(x)) || (typeof x === 'string' && /^-?\d+$/.test(x))) out.push(BigInt(x));
  }
  return out;
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return [e.name, e.message, cause?.code ?? cause?.message].filter(Boolean).join(': ');
  }
  return String(e);
}
