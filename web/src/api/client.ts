/**
 * The app's HTTP client: `/json/...` with the session cookie, Zulip's conventions (form-encoded
 * parameters, non-string values JSON-encoded; the `{result, msg, code}` envelope), the CSRF
 * double submit (`X-CSRFToken` = the `csrftoken` cookie) on unsafe methods.
 */

export type Params = Record<string, unknown>;

/** An error answer of the server (or a network failure: status 0, code `NETWORK_ERROR`). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Seconds to wait before retrying (a 429's Retry-After or `retry-after` field). */
  get retryAfter(): number | undefined {
    const v = this.body['retry-after'];
    return typeof v === 'number' ? v : undefined;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The `csrftoken` cookie's value, if set. */
export function csrfToken(cookie: string = document.cookie): string | undefined {
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === 'csrftoken') return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** Zulip's parameter encoding: strings as they are, everything else as JSON. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export class ApiClient {
  /** Called when the server says the session is gone (401 on /json). */
  onUnauthorized: (() => void) | null = null;

  constructor(private readonly fetchImpl: FetchLike = (input, init) => fetch(input, init)) {}

  get<T>(path: string, params: Params = {}, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, params, options);
  }
  post<T>(path: string, params: Params = {}, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, params, options);
  }
  patch<T>(path: string, params: Params = {}): Promise<T> {
    return this.request<T>('PATCH', path, params);
  }
  delete<T>(path: string, params: Params = {}): Promise<T> {
    return this.request<T>('DELETE', path, params);
  }

  /** `path` is under /json unless it starts with `/` (e.g. `/accounts/login/`, `/api/v1/server_settings`). */
  async request<T>(method: string, path: string, params: Params = {}, options: RequestOptions = {}): Promise<T> {
    const url = path.startsWith('/') ? path : `/json/${path}`;
    const form = encodeParams(params);
    const query = method === 'GET' && [...form.keys()].length > 0 ? `?${form}` : '';
    const init: RequestInit = { method, headers: this.headers(method), credentials: 'same-origin', signal: options.signal };
    if (method !== 'GET') {
      init.body = form;
    }
    return this.send<T>(url + query, init);
  }

  /** A multipart upload (POST /json/user_uploads with `file`). */
  upload<T>(path: string, file: File): Promise<T> {
    const body = new FormData();
    body.append('file', file, file.name);
    return this.send<T>(`/json/${path}`, { method: 'POST', headers: this.headers('POST'), body, credentials: 'same-origin' });
  }

  private headers(method: string): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (UNSAFE.has(method)) {
      const token = csrfToken();
      if (token !== undefined) headers['X-CSRFToken'] = token;
    }
    return headers;
  }

  private async send<T>(url: string, init: RequestInit): Promise<T> {
    let res: Response;
    try {
      res = await this.fetchImpl(url, init);
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new ApiError('Unable to reach the server.', 'NETWORK_ERROR', 0);
    }
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      if (!res.ok) throw new ApiError(`The server answered ${res.status}.`, res.status >= 500 ? 'SERVER_ERROR' : 'BAD_RESPONSE', res.status);
    }
    if (!res.ok || body.result === 'error') {
      const msg = typeof body.msg === 'string' && body.msg !== '' ? body.msg : `The server answered ${res.status}.`;
      const code = typeof body.code === 'string' ? body.code : res.status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST';
      const retry = res.headers.get('retry-after');
      if (retry !== null && body['retry-after'] === undefined) body['retry-after'] = Number(retry);
      const error = new ApiError(msg, code, res.status, body);
      if (res.status === 401 && url.startsWith('/json/')) this.onUnauthorized?.();
      throw error;
    }
    return body as T;
  }
}

export const api = new ApiClient();
