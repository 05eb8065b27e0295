import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallObserver } from './register-calls.ts';

/** Prometheus metrics: one registry per server instance (tests build several in one process). */
export class Metrics implements CallObserver {
  readonly registry = new Registry();
  private readonly calls = new Counter({
    name: 'vigil_api_calls_total',
    help: 'API calls by call name and inner envelope status',
    labelNames: ['call', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'vigil_api_call_duration_seconds',
    help: 'API call latency by call name',
    labelNames: ['call'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
  }

  observe(call: string, innerStatus: number, seconds: number): void {
    this.calls.inc({ call, status: String(innerStatus) });
    this.latency.observe({ call }, seconds);
  }
}
