import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SentMessage } from './device.ts';

/**
 * The ground truth: one JSON line per message the simulator published, written when the
 * client's publish callback fires (for QoS 1, when the PUBACK came back: `acked` true), or when
 * the device stopped first (`acked` false, with `error`). Lines are written synchronously, so a
 * line on disk is a message whose outcome is known, even if the simulator is killed right after.
 *
 * A line: {at, deviceId, via?, topic, qos, retain, seq, ts, sim, payload, acked, error?}
 * (`at` real ISO time of the publish, `sim` simulated ISO time, `via` the gateway host that
 * published a sub-device's message).
 */
export class TruthLog {
  private fd: number | null;
  lines = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a');
  }

  write(message: SentMessage): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${JSON.stringify(message)}\n`);
    this.lines++;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/** Reads a truth log back (tests, comparisons). */
export const parseTruthLog = (text: string): SentMessage[] =>
  text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as SentMessage);
