// Shared by the load test's main thread (scripts/load.mjs) and its poller threads
// (scripts/load/pollers.mjs): a tiny HTTP client over node:http keep-alive agents, and one clock.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Milliseconds on one clock for every thread of the process (wall-clock origin + monotonic offset). */
export const now = () => performance.timeOrigin + performance.now();

/** `Basic …` for a user. */
export const basic = (email, apiKey) => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

/**
 * One request to /api/v1 on 127.0.0.1:`port`; never rejects. Resolves with the HTTP status (0 when
 * the request failed below HTTP or got no answer within `timeoutMs`, `error` then names why), the
 * parsed JSON body and `at`, the time the whole answer had arrived.
 */
export function request(agent, port, method, path, { auth, form, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const body = form === undefined ? undefined : new URLSearchParams(form).toString();
    const headers = auth === undefined ? {} : { authorization: auth };
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = Buffer.byteLength(body);
    }
    // From the moment the request is made (waiting for a free socket of the agent included).
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('no answer'), { code: 'TIMEOUT' })), timeoutMs);
    const failed = (err) => {
      clearTimeout(timer);
      resolve({ status: 0, error: err.code ?? err.message, json: null, at: now() });
    };
    const req = http.request({ host: '127.0.0.1', port, method, path: `/api/v1${path}`, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', failed);
      res.on('end', () => {
        const at = now();
        clearTimeout(timer);
        let json = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // not JSON: json stays null; the status tells what happened
        }
        resolve({ status: res.statusCode, json, at });
      });
    });
    req.on('error', failed);
    req.end(body);
  });
}

/** The label a failed request is counted under: the endpoint, the status, and Zulip's code or the socket error. */
export function failureLabel(endpoint, r) {
  if (r.status === 0) return `${endpoint} ${r.error}`;
  return r.json?.code ? `${endpoint} ${r.status} ${r.json.code}` : `${endpoint} ${r.status}`;
}

/** The message token written into every load message's content ("load <token>"). */
export const TOKEN = /\bload (\d+)\b/;
