import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { answerPrimaryWith, askPrimary, inCluster } from './cluster-metrics.js';

/** Seconds: the usual API answers, and long-polls answered by a heartbeat (EVENT_HEARTBEAT_SECONDS, 45 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Statuses of `email_outbox` rows, each reported (with 0 when no row has it). */
export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
/** The route label of a request no route matched (unknown paths: their URL is never a label). */
export const UNMATCHED_ROUTE = '(unmatched)';

type Labels = Readonly<Record<'method' | 'route' | 'status', string>>;

/**
 * The label set of each (method, route pattern, status) seen, built once: a request looks it up
 * in nested maps instead of allocating an object and a status string. Bounded as the metrics
 * are: methods × route patterns (never URLs) × statuses.
 */
export class RequestLabels {
  private readonly byMethod = new Map<string, Map<string, Map<number, Labels>>>();

  get(method: string, route: string, status: number): Labels {
    let byRoute = this.byMethod.get(method);
    if (byRoute === undefined) this.byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) byRoute.set(route, (byStatus = new Map()));
    let labels = byStatus.get(status);
    if (labels === undefined) byStatus.set(status, (labels = Object.freeze({ method, route, status: String(status) })));
    return labels;
  }
}

/** What the pg pool of TypeORM's PostgreSQL driver reports. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * This process's Prometheus metrics (docs/operating.md, "Metrics"): HTTP requests by route pattern,
 * method and status; events delivered and messages sent; and gauges read at each scrape: the
 * pool's connections, the event queues and email outbox rows in the database, the polls
 * waiting here; plus prom-client's default process metrics. One registry per app (tests run
 * several apps in one process).
 */
@Injectable()
export class ServerMetrics implements OnApplicationShutdown {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly eventsDelivered: Counter;
  readonly messagesSent: Counter;
  private waitingPolls: () => number = () => 0;
  private readonly requestLabels = new RequestLabels();

  constructor(private readonly ds: DataSource) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'svc_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.requestSeconds = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time from a request’s arrival to the end of its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.eventsDelivered = new Counter({ name: 'svc_events_delivered_total', help: 'Events in the answers of GET /api/v1/events', registers });
    this.messagesSent = new Counter({ name: 'svc_messages_sent_total', help: 'Messages committed (sent through the API, scheduled ones delivered, the notification bot’s)', registers });
    this.poolGauges(registers);
    this.databaseGauges(registers);
    const waiting = () => this.waitingPolls(); // prom-client calls collect() with the gauge as `this`
    new Gauge({
      name: 'svc_event_polls_waiting',
      help: 'GET /api/v1/events long-polls waiting in this process',
      registers,
      collect: function (this: Gauge) {
        this.set(waiting());
      },
    });
    if (inCluster()) answerPrimaryWith(this.registry);
  }

  /** The exposition a scrape gets: this process's metrics, or with WORKERS > 1 every worker's, merged by the primary. */
  exposition(): Promise<string> {
    return inCluster() ? askPrimary() : this.registry.metrics();
  }

  /** The source of `svc_event_polls_waiting` (the event queues of this process). */
  watchPolls(waiting: () => number): void {
    this.waitingPolls = waiting;
  }

  /** Counts a committed message (called once per message, after COMMIT). */
  messageCommitted(count: number): void {
    if (count > 0) this.messagesSent.inc(count);
  }

  /** Records one answered request. */
  answered(method: string, route: string, status: number, seconds: number): void {
    const labels = this.requestLabels.get(method, route, status);
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  onApplicationShutdown(): void {
    this.registry.clear(); // stops the default metrics' event-loop monitor
  }

  private poolGauges(registers: Registry[]): void {
    const pool = () => (this.ds.driver as unknown as { master?: PgPool }).master;
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'PostgreSQL connections of this process’s pool, by state (in_use: lent to a request; idle)',
      labelNames: ['state'],
      registers,
      collect: function (this: Gauge<'state'>) {
        const p = pool();
        this.set({ state: 'in_use' }, p ? p.totalCount - p.idleCount : 0);
        this.set({ state: 'idle' }, p ? p.idleCount : 0);
      },
    });
    new Gauge({
      name: 'svc_db_pool_waiting',
      help: 'Requests of this process waiting for a free pool connection',
      registers,
      collect: function (this: Gauge) {
        this.set(pool()?.waitingCount ?? 0);
      },
    });
  }

  /** Gauges counted in PostgreSQL at each scrape (the whole server's, not this process's: `max` across workers). */
  private databaseGauges(registers: Registry[]): void {
    const ds = this.ds;
    new Gauge({
      name: 'svc_event_queues',
      help: 'Event queues open (rows of event_queues, every server process’s)',
      registers,
      aggregator: 'max',
      collect: async function (this: Gauge) {
        const [{ n }] = (await ds.query(`SELECT count(*)::int AS n FROM event_queues`)) as { n: number }[];
        this.set(n);
      },
    });
    new Gauge({
      name: 'svc_email_outbox',
      help: 'Rows of the email outbox by status (pending and sending: the backlog)',
      labelNames: ['status'],
      registers,
      aggregator: 'max',
      collect: async function (this: Gauge<'status'>) {
        const rows = (await ds.query(`SELECT status, count(*)::int AS n FROM email_outbox GROUP BY status`)) as { status: string; n: number }[];
        for (const s of OUTBOX_STATUSES) this.set({ status: s }, rows.find((r) => r.status === s)?.n ?? 0);
      },
    });
  }
}
