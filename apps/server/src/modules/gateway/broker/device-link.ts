import type { DeviceCommandMessage } from '@vigil/contract';

/** How the server reaches devices: the embedded broker, or a client of an external one. */
export interface DeviceLink {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Publishes a command on the device's `cmd` topic with QoS 1. */
  sendCommand(deviceId: string, message: DeviceCommandMessage): Promise<void>;
}
