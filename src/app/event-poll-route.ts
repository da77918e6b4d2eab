import type { Actor } from '@app/domain/users';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { Request, Response } from 'express';
import { EventQueues } from '../events/application/event-queues.js';
import { Clock } from '../shared/application/clock.js';
import { DatabaseHealth } from '../shared/application/database-health.js';
import { API_BY_USER, rateLimited, RateLimiter } from '../shared/application/rate-limiter.js';
import { applyRateLimitHeaders } from '../shared/auth/guards.js';
import { ServerConfig } from '../shared/config/server-config.js';
import { AllExceptionsFilter } from '../shared/http/all-exceptions.filter.js';
import { AppLogger } from '../shared/logging/logger.js';
import { Authenticator } from '../users/application/authenticator.js';
import type { RequestObserver } from './metrics/request-observer.js';
import { ServerMetrics } from './metrics/server-metrics.js';

const EVENTS_PATH = '/api/v1/events';
/** A plain poll's request target: the path exactly, then its query string (anything else is Express's). */
const EVENTS_QUERY = `${EVENTS_PATH}?`;
const PARAMETERS = new Set(['queue_id', 'last_event_id', 'dont_block']);
/** A JSON integer as the route's parameter decoding reads it (no leading zero, no -0). */
const EVENT_ID = /^(0|-?[1-9]\d{0,14})$/;
const MAX_QUEUE_ID_LENGTH = 100;

/** A long-poll in the form every client sends it: the three parameters, well-formed, once each, in the query string. */
interface PlainPoll {
  queueId: string;
  lastEventId: number;
  dontBlock: boolean;
}

/**
 * GET /api/v1/events, the hottest request of a chat server (every delivery is one), answered
 * here before Express and the Nest pipeline: API-key authentication (cached credentials), the
 * per-user rate limit, the poll, the envelope, the response headers every answer carries, the
 * request log line and metrics, and the delivered-events metric — the same answer as the route
 * in RegisterController, without Express's routing of every request through its middleware and
 * route layers, the guard and interceptor chain and the parameter decoding. It takes over the
 * HTTP server's `request` listener and hands anything it does not handle exactly as the route
 * would to Express unchanged: another path or method, a browser session (/json, CSRF), a
 * parameter that is missing, repeated, unknown or malformed (its exact error or
 * `ignored_parameters_unsupported`), a body, credentials that do not authenticate (the guard's
 * exact answers). Errors of the poll itself go through the same exception filter.
 */
export function serveEventPolls(app: NestExpressApplication, observe: RequestObserver): void {
  const authenticator = app.get(Authenticator);
  const queues = app.get(EventQueues);
  const metrics = app.get(ServerMetrics);
  const config = app.get(ServerConfig);
  const limiter = app.get(RateLimiter);
  const clock = app.get(Clock);
  const filter = new AllExceptionsFilter(app.get(AppLogger), app.get(DatabaseHealth));
  const server = app.getHttpServer() as Server;
  const express = app.getHttpAdapter().getInstance() as ExpressApp;
  const listeners = server.listeners('request');
  if (listeners.length !== 1 || listeners[0] !== express) throw new Error('serveEventPolls: the HTTP server must have Express as its only request listener');

  /** An error of the poll, answered by the exception filter on the request as Express would have dressed it. */
  const fail = (err: unknown, req: Request, res: Response) => {
    dressForExpress(express, req, res);
    filter.catch(err, { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as Parameters<AllExceptionsFilter['catch']>[1]);
  };

  const answer = async (req: Request, res: Response, poll: PlainPoll, credentials: [string, string]) => {
    let actor: Actor;
    try {
      actor = await authenticator.authenticateApiKey(req.headers.host, credentials[0], credentials[1]);
    } catch {
      express(req, res); // the guard answers with its exact error
      return;
    }
    req.user = actor;
    // The route's pattern, for the request log and metrics (as Express sets it for routed requests).
    (req as { route?: unknown }).route = { path: EVENTS_PATH };
    if (config.rateLimiting) {
      const d = await limiter.hit(`user:${actor.userId}`, API_BY_USER, clock.now().getTime());
      applyRateLimitHeaders(res, d);
      if (!d.allowed) throw rateLimited(d.retryAfter);
    }
    const cancelled = new Promise<void>((resolve) => req.on('close', () => resolve()));
    const events = await queues.poll(poll.queueId, actor.userId, poll.lastEventId, poll.dontBlock, cancelled);
    if (events.length > 0) metrics.eventsDelivered.inc(events.length);
    if (res.destroyed) return;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(`{"result":"success","msg":"","events":[${events.map(eventJson).join(',')}],"queue_id":${JSON.stringify(poll.queueId)}}`);
  };

  server.removeListener('request', express);
  server.on('request', (req: Request, res: Response) => {
    if (req.method !== 'GET' || !req.url.startsWith(EVENTS_QUERY) || hasBody(req)) return express(req, res);
    const poll = plainPoll(req.url);
    const credentials = poll === null ? null : basicCredentials(req.headers.authorization);
    if (poll === null || credentials === null) return express(req, res);
    observe(req, res); // the response headers, the log line and metrics (once, if Express takes the request over)
    answer(req, res, poll, credentials).catch((err: unknown) => fail(err, req, res));
  });
}

/** The Express application function (its request and response prototypes included). */
type ExpressApp = ((req: Request, res: Response) => void) & { request: object; response: object };

/** What Express's app.handle does to every request before routing it (the exception filter answers through `res.status().json()`). */
function dressForExpress(express: ExpressApp, req: Request, res: Response): void {
  if (Object.getPrototypeOf(res) === express.response) return;
  (req as { res?: Response }).res = res;
  (res as { req?: Request }).req = req;
  (req as { originalUrl?: string }).originalUrl ??= req.url;
  Object.setPrototypeOf(req, express.request);
  Object.setPrototypeOf(res, express.response);
  res.locals ??= Object.create(null) as Response['locals'];
}

/** The JSON text of each shared message view (queue-record.ts), made once for all its recipients. */
const messageJson = new WeakMap<object, string>();

/** An event's JSON: a message event's `message` from the shared text (same members, `message` first). */
export function eventJson(event: Record<string, unknown>): string {
  const message = event.message;
  if (event.type !== 'message' || typeof message !== 'object' || message === null) return JSON.stringify(event);
  let text = messageJson.get(message);
  if (text === undefined) messageJson.set(message, (text = JSON.stringify(message)));
  const { message: _, ...rest } = event;
  return `{"message":${text},${JSON.stringify(rest).slice(1)}`;
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/** The poll's parameters when the query string holds exactly queue_id and last_event_id (and dont_block), well-formed. */
export function plainPoll(url: string): PlainPoll | null {
  const at = url.indexOf('?');
  if (at < 0) return null;
  const params = new URLSearchParams(url.slice(at + 1));
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (!PARAMETERS.has(key) || seen.has(key)) return null;
    seen.add(key);
  }
  const queueId = params.get('queue_id');
  const lastEventId = params.get('last_event_id');
  const dontBlock = params.get('dont_block') ?? 'false';
  if (queueId === null || queueId === '' || queueId.length > MAX_QUEUE_ID_LENGTH || queueId.includes('\u0000')) return null;
  if (lastEventId === null || !EVENT_ID.test(lastEventId) || (dontBlock !== 'true' && dontBlock !== 'false')) return null;
  return { queueId, lastEventId: Number(lastEventId), dontBlock: dontBlock === 'true' };
}

/** Email and API key of a well-formed `Basic` header (anything else is left to the guard's exact answers). */
export function basicCredentials(header: string | undefined): [string, string] | null {
  if (header === undefined) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0].toLowerCase() !== 'basic' || !/^[A-Za-z0-9+/]*={0,2}$/.test(parts[1]) || parts[1].length % 4 !== 0) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(parts[1], 'base64'));
  } catch {
    return null;
  }
  const pieces = decoded.split(':');
  return pieces.length === 2 && pieces[0].trim() !== '' ? [pieces[0], pieces[1]] : null;
}
