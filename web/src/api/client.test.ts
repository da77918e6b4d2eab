import { ApiClient, ApiError, csrfToken, encodeParams } from './client';
import { backoffDelay, EventLoop } from './events';
import type { RegisterResponse, ServerEvent } from './types';

type Call = { url: string; init: RequestInit };

/** A fetch that answers from a list (each a body and status, or a thrown error), recording calls. */
function fakeFetch(answers: (((call: Call) => unknown) | { status?: number; body: unknown } | Error)[]) {
  const calls: Call[] = [];
  const fetchImpl = async (url: string, init: RequestInit = {}) => {
    const call = { url, init };
    calls.push(call);
    let a = answers.shift();
    if (typeof a === 'function') a = a(call) as { status?: number; body: unknown };
    if (a === undefined) return new Promise<Response>(() => undefined);
    if (a instanceof Error) throw a;
    const { status = 200, body } = a as { status?: number; body: unknown };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetchImpl };
}

afterEach(() => {
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('the API client', () => {
  it('encodes parameters as Zulip clients do: strings as they are, the rest as JSON', () => {
    const form = encodeParams({ content: 'hi there', to: 12, narrow: [{ operator: 'is', operand: 'starred' }], read: true, skipped: undefined });
    expect(form.get('content')).toBe('hi there');
    expect(form.get('to')).toBe('12');
    expect(form.get('narrow')).toBe('[{"operator":"is","operand":"starred"}]');
    expect(form.get('read')).toBe('true');
    expect(form.has('skipped')).toBe(false);
  });

  it('reads the csrftoken cookie', () => {
    expect(csrfToken('a=1; csrftoken=abc%3D; b=2')).toBe('abc=');
    expect(csrfToken('a=1')).toBeUndefined();
  });

  it('sends X-CSRFToken on unsafe methods only, to /json', async () => {
    document.cookie = 'csrftoken=tok123';
    const { calls, fetchImpl } = fakeFetch([{ body: { result: 'success', msg: '' } }, { body: { result: 'success', msg: '', messages: [] } }]);
    const client = new ApiClient(fetchImpl);
    await client.post('messages', { type: 'stream', to: 10, topic: 't', content: 'c' });
    await client.get('messages', { anchor: 'newest' });
    expect(calls[0].url).toBe('/json/messages');
    expect((calls[0].init.headers as Record<string, string>)['X-CSRFToken']).toBe('tok123');
    expect(String(calls[0].init.body)).toBe('type=stream&to=10&topic=t&content=c');
    expect(calls[1].url).toBe('/json/messages?anchor=newest');
    expect((calls[1].init.headers as Record<string, string>)['X-CSRFToken']).toBeUndefined();
  });

  it("throws the server's error envelope as an ApiError with msg and code", async () => {
    const { fetchImpl } = fakeFetch([{ status: 400, body: { result: 'error', msg: 'Invalid stream name', code: 'BAD_REQUEST' } }]);
    const error = await new ApiClient(fetchImpl).post('users/me/subscriptions', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Invalid stream name', code: 'BAD_REQUEST', status: 400 });
  });

  it('reports a network failure as NETWORK_ERROR and a lost session to onUnauthorized', async () => {
    const { fetchImpl } = fakeFetch([new TypeError('Failed to fetch'), { status: 401, body: { result: 'error', msg: 'Not logged in', code: 'UNAUTHORIZED' } }]);
    const client = new ApiClient(fetchImpl);
    let lost = 0;
    client.onUnauthorized = () => (lost += 1);
    await expect(client.get('users/me')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    await expect(client.get('users/me')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(lost).toBe(1);
  });
});

describe('the events loop', () => {
  const registered = (queue: string, last = 5) => ({ body: { result: 'success', queue_id: queue, last_event_id: last } as Partial<RegisterResponse> });

  it('backs off exponentially with jitter, up to a ceiling', () => {
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(2, () => 1)).toBe(2000);
    expect(backoffDelay(3, () => 0)).toBe(3000);
    expect(backoffDelay(10, () => 1)).toBe(10_000);
  });

  it('registers, polls from the last event id, and retries failures with back-off', async () => {
    const got: ServerEvent[][] = [];
    const waits: number[] = [];
    const { calls, fetchImpl } = fakeFetch([
      registered('q1', 5),
      { body: { result: 'success', events: [{ id: 6, type: 'message' }, { id: 7, type: 'heartbeat' }] } },
      new TypeError('down'),
      { status: 502, body: { result: 'error', msg: 'Bad gateway' } },
      { body: { result: 'success', events: [{ id: 8, type: 'reaction' }] } },
      () => {
        loop.stop();
        return { body: { result: 'success', events: [] } };
      },
    ]);
    const loop = new EventLoop(new ApiClient(fetchImpl), { onRegistered: () => undefined, onEvents: (e) => got.push(e) }, { sleep: async (ms) => void waits.push(ms), random: () => 1 });
    await loop.run();
    expect(calls[0].url).toBe('/json/register');
    expect(new URLSearchParams(String(calls[0].init.body)).get('apply_markdown')).toBe('true');
    expect(calls[1].url).toBe('/json/events?queue_id=q1&last_event_id=5');
    expect(calls[2].url).toBe('/json/events?queue_id=q1&last_event_id=7');
    expect(got).toEqual([[{ id: 6, type: 'message' }], [{ id: 8, type: 'reaction' }]]);
    expect(waits).toEqual([1000, 2000]);
  });

  it('registers again on BAD_EVENT_QUEUE_ID and says so', async () => {
    const registrations: [string, boolean][] = [];
    const { calls, fetchImpl } = fakeFetch([
      registered('q1', 3),
      { status: 400, body: { result: 'error', msg: 'Bad event queue ID: q1', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'q1' } },
      registered('q2', 9),
      () => {
        loop.stop();
        return { body: { result: 'success', events: [] } };
      },
    ]);
    const loop = new EventLoop(new ApiClient(fetchImpl), { onRegistered: (s, again) => registrations.push([s.queue_id, again]), onEvents: () => undefined }, { sleep: async () => undefined });
    await loop.run();
    expect(registrations).toEqual([
      ['q1', false],
      ['q2', true],
    ]);
    expect(calls[3].url).toBe('/json/events?queue_id=q2&last_event_id=9');
  });

  it('stops when the session is gone', async () => {
    const { calls, fetchImpl } = fakeFetch([registered('q1'), { status: 401, body: { result: 'error', msg: 'Not logged in', code: 'UNAUTHORIZED' } }]);
    await new EventLoop(new ApiClient(fetchImpl), { onRegistered: () => undefined, onEvents: () => undefined }, { sleep: async () => undefined }).run();
    expect(calls).toHaveLength(2);
  });

  it('waits as long as a rate limit says', async () => {
    const waits: number[] = [];
    const { fetchImpl } = fakeFetch([
      { status: 429, body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 2.5 } },
      () => {
        loop.stop();
        return registered('q1');
      },
    ]);
    const loop = new EventLoop(new ApiClient(fetchImpl), { onRegistered: () => undefined, onEvents: () => undefined }, { sleep: async (ms) => void waits.push(ms) });
    await loop.run();
    expect(waits).toEqual([2500]);
  });
});
