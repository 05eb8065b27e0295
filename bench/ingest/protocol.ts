/** What bench/ingest.ts and its load-generator children (generator.ts) say to each other over IPC. */

export interface GeneratorInit {
  type: 'init';
  host: string;
  port: number;
  deviceIds: string[];
  /** Send client id = user name = device ID and this password (embedded broker); else anonymous. */
  secrets: Record<string, string> | undefined;
  /** New connections per second (this generator's share). */
  connectRate: number;
  keepaliveSeconds: number;
}

export type ToGenerator =
  | GeneratorInit
  | { type: 'connect' }
  /** Telemetry messages a second over all of this generator's devices; QoS 1 events per device a minute. */
  | { type: 'rate'; telemetryPerSecond: number; eventsPerDeviceMinute: number }
  | { type: 'stats'; id: number }
  | { type: 'stop' };

export interface GeneratorStats {
  /** Cumulative since the start. */
  telemetrySent: number;
  eventsSent: number;
  eventsAcked: number;
  /** Events whose connection closed before their PUBACK. */
  eventsUnacked: number;
  /** Messages due to a device whose connection was down. */
  skippedOffline: number;
  /** Messages not written because the connection's send buffer held over 256 KB (the broker does not read). */
  skippedBackedUp: number;
  /** Messages the scheduler gave up on because it ran over a second behind (the generator is saturated). */
  skippedLate: number;
  connected: number;
  connectFailures: Record<string, number>;
  /** Connections that closed after they were up. */
  drops: number;
  /** Publish → PUBACK of the events acknowledged since the previous `stats`, ms. */
  eventAckMs: number[];
  /** The scheduler's greatest delay behind the schedule since the previous `stats`, ms. */
  maxBehindMs: number;
}

export type FromGenerator =
  | { type: 'ready' }
  | { type: 'connected'; connected: number; failures: Record<string, number>; seconds: number }
  | { type: 'stats'; id: number; stats: GeneratorStats }
  | { type: 'stopped' };
