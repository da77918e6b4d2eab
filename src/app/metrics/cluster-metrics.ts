import { randomUUID } from 'node:crypto';
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * WORKERS > 1: a scrape reaches one worker; it asks the primary (over the cluster's IPC
 * channel), which collects every worker's registry with prom-client's AggregatorRegistry
 * (each worker answers from its own, `answerPrimaryWith`) and merges them: counters and
 * histograms summed, gauges by their aggregator (pool and waiting polls summed, the database's
 * counts taken once).
 */
export const METRICS_REQUEST = 'svc:metrics-request';
export const METRICS_ANSWER = 'svc:metrics-answer';

interface MetricsRequest {
  type: typeof METRICS_REQUEST;
  id: string;
}
interface MetricsAnswer {
  type: typeof METRICS_ANSWER;
  id: string;
  text?: string;
  error?: string;
}

/** Limit of a worker's wait for the primary's answer (the primary waits 5 s for the workers). */
const ANSWER_TIMEOUT_MS = 10_000;

/** In a worker: its registry is what it answers the primary's AggregatorRegistry with. */
export function answerPrimaryWith(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // installs prom-client's listener for the primary's requests
}

/** In a worker: every worker's metrics, merged by the primary. */
export function askPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (m: MetricsAnswer) => {
      if (m?.type !== METRICS_ANSWER || m.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (m.text !== undefined) resolve(m.text);
      else reject(new Error(m.error ?? 'no metrics'));
    };
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('the primary did not answer'));
    }, ANSWER_TIMEOUT_MS);
    process.on('message', onMessage);
    const request: MetricsRequest = { type: METRICS_REQUEST, id };
    process.send!(request);
  });
}

/** In the primary: answers the workers' metrics requests with every worker's metrics, merged. */
export function serveWorkersMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, m: MetricsRequest) => {
    if (m?.type !== METRICS_REQUEST) return;
    const reply = (a: Omit<MetricsAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: METRICS_ANSWER, id: m.id, ...a } satisfies MetricsAnswer);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: Error) => reply({ error: err.message }),
    );
  });
}

export const inCluster = (): boolean => cluster.isWorker;
