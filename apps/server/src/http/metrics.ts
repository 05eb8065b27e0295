import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallObserver } from './register-calls.ts';

/** Prometheus metrics: one registry per server instance (tests build several in one process). */
export class Metrics implements CallObserver {
  private readonly own = new Registry();
  /** Everything /metrics shows: the calls' and the modules' registries (the device gateway's). */
  readonly registry: Registry;
  private readonly calls = new Counter({
    name: 'vigil_api_calls_total',
    help: 'API calls by call name and inner envelope status',
    labelNames: ['call', 'status'] as const,
    registers: [this.own],
  });
  private readonly latency = new Histogram({
    name: 'vigil_api_call_duration_seconds',
    help: 'API call latency by call name',
    labelNames: ['call'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.own],
  });

  /** Promise rejections no code handled: logged and counted, the server keeps serving (core/process-faults.ts). */
  readonly unhandledRejections = new Counter({
    name: 'vigil_unhandled_rejections_total',
    help: 'Promise rejections no code handled (logged; the server kept serving)',
    registers: [this.own],
  });

  constructor(modules: readonly Registry[] = []) {
    collectDefaultMetrics({ register: this.own, prefix: 'vigil_' });
    this.registry = modules.length ? Registry.merge([this.own, ...modules]) : this.own;
  }

  observe(call: string, innerStatus: number, seconds: number): void {
    this.calls.inc({ call, status: String(innerStatus) });
    this.latency.observe({ call }, seconds);
  }
}
