import { parseDeviceMessage, type CommandAck, type DeviceEvent, type DropReason } from '@vigil/contract';
import type { Clock } from '../../../clock.ts';
import type { RateLimitedLog } from '../../../core/log.ts';
import { kindOf } from '../../devices/device.policy.ts';
import type { LiveStatePatch } from '../live/live-state.ts';
import { BacklogFull, type BatchQueue } from '../../../core/batch-queue.ts';
import type { DeviceContext, DeviceDirectory } from './device-directory.ts';
import type { DeviceFeed, StoredDeviceEvent } from './device-feed.ts';
import type { IngestMetrics } from './ingest-metrics.ts';
import type { MinuteRollup } from './minute-rollup.ts';
import type { Presence } from './presence.ts';
import type { SeqWindow } from './seq-window.ts';

/**
 * What became of one message; each may be acknowledged. An event that could not be stored
 * rejects instead, and the broker must not acknowledge it.
 */
export type IngestOutcome =
  | { result: 'stored' | 'taken' | 'duplicate' }
  | { result: 'dropped'; reason: DropReason | 'unknown_device' | 'backlog' };

export interface IngestDeps {
  clock: Clock;
  directory: DeviceDirectory;
  seqs: SeqWindow;
  presence: Presence;
  rollup: MinuteRollup;
  events: BatchQueue<StoredDeviceEvent>;
  feed: DeviceFeed;
  metrics: IngestMetrics;
  log: RateLimitedLog;
  /** A device's answer to a command; resolves once the command's state is stored. */
  acknowledge: (context: DeviceContext, ack: CommandAck) => Promise<void>;
}

const eventDetail = (event: DeviceEvent): Record<string, unknown> => {
  const { ts: _ts, seq: _seq, event: _name, ...detail } = event;
  return detail;
};

/** What an event tells about the device's live state. */
const eventPatch = (event: DeviceEvent): LiveStatePatch => (event.event === 'mat' ? { mat: event.state } : {});

/**
 * The pipeline every device message takes, whatever broker brought it: parse and validate
 * (the contract's pure parser) → deduplicate on (device, seq) → live state in memory →
 * rollups (telemetry) or the batched event writer (events) → the live feed. The returned
 * promise settles when the broker may acknowledge: for an event, after its batch committed.
 */
export class Ingest {
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(private readonly deps: IngestDeps) {}

  async handle(topic: string, payload: Uint8Array): Promise<IngestOutcome> {
    const { clock, metrics } = this.deps;
    const receivedAt = clock.now();
    const parsed = parseDeviceMessage(topic, payload, receivedAt.getTime() / 1000);
    if (!parsed.ok) return this.drop(parsed.reason, topic, parsed.detail);
    const { message } = parsed;
    const deviceId = message.deviceId.toUpperCase();
    // A device moved a moment ago is stamped with where it is now: its message waits for that read.
    const moving = this.deps.directory.settled(deviceId);
    const context =
      (moving ? await moving : this.deps.directory.get(deviceId)) ?? (await this.deps.directory.lookup(deviceId));
    if (!context) return this.drop('unknown_device', topic);
    metrics.countMessage(kindOf(context.typeCode), message.kind);

    switch (message.kind) {
      case 'telemetry': {
        const t = message.body;
        if (!this.deps.seqs.take(deviceId, t.seq)) return this.duplicate();
        this.deps.presence.seen(context, receivedAt, t.mat ? { mat: t.mat } : {});
        this.deps.rollup.add(context, t);
        metrics.telemetryLag.observe(Math.max(0, receivedAt.getTime() / 1000 - t.ts));
        this.deps.feed.publish({ kind: 'vitals', context, receivedAt, telemetry: t });
        return { result: 'taken' };
      }
      case 'event':
        return this.event(context, message.body, receivedAt);
      case 'status': {
        const s = message.body;
        const patch: LiveStatePatch = {
          battery: s.battery,
          signal: s.signal,
          firmwareVersion: s.fw,
          hardwareVersion: s.hw,
        };
        const state = s.online
          ? this.deps.presence.seen(context, receivedAt, patch, 'message', true)
          : this.deps.presence.offline(context, receivedAt, 'status', patch);
        this.deps.feed.publish({ kind: 'status', context, status: s, state });
        return { result: 'taken' };
      }
      case 'ack':
        this.deps.presence.seen(context, receivedAt);
        await this.deps.acknowledge(context, message.body);
        return { result: 'stored' };
    }
  }

  private async event(context: DeviceContext, body: DeviceEvent, receivedAt: Date): Promise<IngestOutcome> {
    const key = `${context.deviceId}\u0000${body.seq}`;
    if (!this.deps.seqs.take(context.deviceId, body.seq)) {
      // A redelivery of an event still being written is acknowledged only once that write is done.
      const first = this.inflight.get(key);
      if (first) await first.catch(() => undefined);
      return this.duplicate();
    }
    this.deps.presence.seen(context, receivedAt, eventPatch(body));
    const stored: StoredDeviceEvent = {
      deviceId: context.deviceId,
      event: body.event,
      seq: body.seq,
      occurredAt: new Date(body.ts * 1000),
      receivedAt,
      detail: eventDetail(body),
      providerId: context.providerId,
      deviceRowId: context.deviceRowId,
      bedId: context.bedId,
      residentId: context.residentId,
    };
    const write = this.deps.events.add(stored);
    this.inflight.set(key, write);
    try {
      await write;
    } catch (error) {
      // Not stored, so not acknowledged: the device keeps the event and sends it again.
      this.deps.seqs.release(context.deviceId, body.seq);
      if (error instanceof BacklogFull) this.drop('backlog', context.deviceId);
      throw error;
    } finally {
      this.inflight.delete(key);
    }
    const now = this.deps.clock.now().getTime();
    this.deps.metrics.eventLag.observe(Math.max(0, now / 1000 - body.ts));
    this.deps.metrics.eventStore.observe(Math.max(0, (now - receivedAt.getTime()) / 1000));
    this.deps.feed.publish({ kind: 'event', event: stored });
    return { result: 'stored' };
  }

  private duplicate(): IngestOutcome {
    this.deps.metrics.duplicates.inc();
    return { result: 'duplicate' };
  }

  private drop(reason: DropReason | 'unknown_device' | 'backlog', topic: string, detail?: string): IngestOutcome {
    this.deps.metrics.dropped.inc({ reason });
    this.deps.log.warn(`drop:${reason}`, { reason, topic: topic.slice(0, 120), detail }, 'device message dropped');
    return { result: 'dropped', reason };
  }
}
