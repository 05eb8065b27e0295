/** One reading of an instance's /metrics: what a soak watches for growth. */
export interface Sample {
  at: number;
  instance: number;
  rssMb: number;
  heapMb: number;
  /** Event-loop delay p99 over prom-client's last window, ms. */
  loopP99Ms: number;
  /** Since start: event batches written, their seconds in all, and the events in them. */
  eventWrites: number;
  eventWriteSeconds: number;
  /** Since start: events stored, and their seconds from taken to stored in all. */
  eventsStored: number;
  eventStoreSeconds: number;
}

const gauge = (text: string, name: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

/**
 * Reads every instance's /metrics (with the drill's bearer token) every `everyMs`: resident
 * memory, heap and event-loop delay, to judge whether a long run stays flat.
 */
export class MetricsSampler {
  readonly samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bases: () => readonly string[],
    private readonly token: string,
    private readonly everyMs = 30_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.read(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async read(): Promise<void> {
    const at = Date.now();
    await Promise.all(
      this.bases().map(async (base, instance) => {
        const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${this.token}` } })
          .then((r) => (r.ok ? r.text() : ''))
          .catch(() => '');
        const rss = gauge(text, 'vigil_process_resident_memory_bytes');
        const heap = gauge(text, 'vigil_nodejs_heap_size_used_bytes');
        const loop = gauge(text, 'vigil_nodejs_eventloop_lag_p99_seconds');
        if (rss === undefined || heap === undefined || loop === undefined) return;
        this.samples.push({
          at,
          instance,
          rssMb: rss / 2 ** 20,
          heapMb: heap / 2 ** 20,
          loopP99Ms: loop * 1000,
          eventWrites: gauge(text, 'vigil_ingest_flush_seconds_count{queue="events"}') ?? 0,
          eventWriteSeconds: gauge(text, 'vigil_ingest_flush_seconds_sum{queue="events"}') ?? 0,
          eventsStored: gauge(text, 'vigil_ingest_event_store_seconds_count') ?? 0,
          eventStoreSeconds: gauge(text, 'vigil_ingest_event_store_seconds_sum') ?? 0,
        });
      }),
    );
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor(sorted.length / 2)] ?? 0) : 0;
};

export interface Drift {
  instance: number;
  rssFirstMb: number;
  rssLastMb: number;
  heapFirstMb: number;
  heapLastMb: number;
  loopFirstMs: number;
  loopLastMs: number;
}

/** Medians of each instance's first and last `spanMs` of samples: flat when the last is not much above the first. */
export const drift = (samples: readonly Sample[], spanMs: number): Drift[] => {
  const instances = [...new Set(samples.map((s) => s.instance))].sort();
  return instances.map((instance) => {
    const own = samples.filter((s) => s.instance === instance);
    const start = own[0]?.at ?? 0;
    const end = own.at(-1)?.at ?? 0;
    const first = own.filter((s) => s.at <= start + spanMs);
    const last = own.filter((s) => s.at >= end - spanMs);
    return {
      instance,
      rssFirstMb: median(first.map((s) => s.rssMb)),
      rssLastMb: median(last.map((s) => s.rssMb)),
      heapFirstMb: median(first.map((s) => s.heapMb)),
      heapLastMb: median(last.map((s) => s.heapMb)),
      loopFirstMs: median(first.map((s) => s.loopP99Ms)),
      loopLastMs: median(last.map((s) => s.loopP99Ms)),
    };
  });
};

/**
 * Each instance's medians per `spanMs` from its first sample: the shape of a long run, so growth
 * that levels off (a warm-up) can be told from growth that goes on (a leak).
 */
export const series = (
  samples: readonly Sample[],
  spanMs: number,
): { instance: number; rssMb: number[]; heapMb: number[]; loopP99Ms: number[] }[] => {
  const instances = [...new Set(samples.map((s) => s.instance))].sort();
  return instances.map((instance) => {
    const own = samples.filter((s) => s.instance === instance);
    const start = own[0]?.at ?? 0;
    const buckets: Sample[][] = [];
    for (const s of own) (buckets[Math.floor((s.at - start) / spanMs)] ??= []).push(s);
    const full = buckets.filter((b) => b.length);
    return {
      instance,
      rssMb: full.map((b) => median(b.map((s) => s.rssMb))),
      heapMb: full.map((b) => median(b.map((s) => s.heapMb))),
      loopP99Ms: full.map((b) => median(b.map((s) => s.loopP99Ms))),
    };
  });
};

/** Flat: resident memory and heap grew at most 15 %, event-loop p99 at most doubled (or stays under 50 ms). */
export const isFlat = (d: Drift): boolean =>
  d.rssLastMb <= d.rssFirstMb * 1.15 &&
  d.heapLastMb <= d.heapFirstMb * 1.15 &&
  (d.loopLastMs <= d.loopFirstMs * 2 || d.loopLastMs < 50);
