import type { DeviceCommandMessage } from '@vigil/contract';
import type { RateLimitedLog } from '../../../core/log.ts';
import type { DeviceLink } from './device-link.ts';

/** A command waiting for its device, as the gateway sends it. */
export interface QueuedCommand {
  id: number;
  deviceId: string;
  command: string;
  payload: Record<string, unknown>;
}

/**
 * What the gateway needs of the device commands (the devices module keeps them): what waits for
 * a device, that it went out, the device's answer, the expiry of the unanswered, and word of a
 * newly queued command.
 */
export interface CommandDelivery {
  undeliveredFor(deviceId: string): Promise<QueuedCommand[]>;
  markSent(id: number): Promise<boolean>;
  acknowledge(deviceId: string, id: number, ok: boolean, error?: string): Promise<boolean>;
  expireOld(): Promise<number>;
  onQueued(listener: (deviceId: string) => void): () => void;
}

/**
 * Sends queued commands to devices: when a command is queued (to a device that is connected)
 * and whenever a device subscribes to its command topic (it connected), pending and
 * sent-but-unanswered commands go out in order; each send is recorded (pending → sent). The
 * device's answer arrives through the ingest (`acknowledge`). Unanswered commands expire.
 */
export class CommandDispatcher {
  private readonly busy = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Resolved when used: the devices module that keeps the commands is built after the gateway. */
    private readonly commands: () => CommandDelivery,
    private readonly link: () => DeviceLink | undefined,
    private readonly log: RateLimitedLog,
  ) {}

  /** Sends what waits for a device; one delivery run per device at a time. */
  deliver(deviceId: string): Promise<void> {
    const running = this.busy.get(deviceId);
    const next = (running ?? Promise.resolve())
      .then(() => this.send(deviceId))
      .catch((error: unknown) =>
        this.log.warn('command:send', { deviceId, err: String(error) }, 'sending device commands failed'),
      )
      .finally(() => {
        if (this.busy.get(deviceId) === next) this.busy.delete(deviceId);
      });
    this.busy.set(deviceId, next);
    return next;
  }

  private async send(deviceId: string): Promise<void> {
    const link = this.link();
    if (!link) return;
    for (const command of await this.commands().undeliveredFor(deviceId)) {
      const message: DeviceCommandMessage = {
        id: command.id,
        command: command.command as DeviceCommandMessage['command'],
        params: command.payload,
      };
      await link.sendCommand(command.deviceId, message);
      await this.commands().markSent(command.id);
    }
  }

  /** Expires unanswered commands once a minute. */
  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    const sweep = () => this.commands().expireOld().catch(onError);
    void sweep();
    this.timer = setInterval(sweep, 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.busy.values());
  }
}
