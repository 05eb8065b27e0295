import type { DeviceStatus, Telemetry } from '@vigil/contract';
import type { LiveState } from '../live/live-state.ts';
import type { DeviceContext } from './device-directory.ts';

/** A device event as stored (device_event), published after its batch committed. */
export interface StoredDeviceEvent {
  deviceId: string;
  /** The protocol's event name, or online | offline. */
  event: string;
  seq: number | null;
  occurredAt: Date;
  receivedAt: Date;
  detail: Record<string, unknown>;
  providerId: number | null;
  deviceRowId: number | null;
  bedId: number | null;
  residentId: number | null;
}

export type FeedItem =
  | { kind: 'vitals'; context: DeviceContext; receivedAt: Date; telemetry: Telemetry }
  | { kind: 'event'; event: StoredDeviceEvent }
  | { kind: 'status'; context: DeviceContext; status: DeviceStatus; state: LiveState };

type Handler = (item: FeedItem) => void;

/**
 * The live stream inside the process: vitals as they arrive, device events once stored, status
 * changes. The alarm engine and the console's socket subscribe here. Handlers run synchronously
 * and must only queue work; one that throws is reported and never stops the ingest.
 */
export class DeviceFeed {
  private readonly handlers = new Set<{ kinds: ReadonlySet<FeedItem['kind']> | null; handle: Handler }>();
  private readonly vitals = new Map<string, { receivedAt: Date; telemetry: Telemetry }>();

  constructor(private readonly onHandlerError: (error: unknown) => void = () => undefined) {}

  subscribe(handle: Handler, kinds?: readonly FeedItem['kind'][]): () => void {
    const entry = { kinds: kinds?.length ? new Set(kinds) : null, handle };
    this.handlers.add(entry);
    return () => this.handlers.delete(entry);
  }

  publish(item: FeedItem): void {
    if (item.kind === 'vitals') {
      this.vitals.set(item.context.deviceId, { receivedAt: item.receivedAt, telemetry: item.telemetry });
    }
    for (const { kinds, handle } of this.handlers) {
      if (kinds && !kinds.has(item.kind)) continue;
      try {
        handle(item);
      } catch (error) {
        this.onHandlerError(error);
      }
    }
  }

  /** The latest vitals of a device (a new subscriber's first picture). */
  latestVitals(deviceId: string): { receivedAt: Date; telemetry: Telemetry } | undefined {
    return this.vitals.get(deviceId);
  }
}
