/**
 * The firmware bench's devices, in a process of their own so they never share the bench's event
 * loop (which times alarms): the simulator's fleet of sleep monitors, streaming at 1 Hz and
 * carrying out `ota` commands (download with resume, MD5 check, progress, restart on the new
 * version). Started by a `start` message; answers `started`, then every second `tally`.
 */
import { planFleet, startFleet, type DeviceCount } from '../../apps/simulator/src/index.ts';

interface Start {
  type: 'start';
  url: string;
  httpUrl: string;
  counts: DeviceCount[];
  prefix: string;
  secrets: Record<string, string>;
  otaFailureRate: number;
}

export interface Tally {
  type: 'tally';
  connected: number;
  /** Devices that restarted on the new version, and upgrades that failed on the device. */
  upgraded: number;
  failed: number;
  /** Bytes of firmware the devices received (from their progress reports). */
  downloading: number;
}

const send = (message: object) => process.send?.(message);

process.on('message', (raw: { type: string }) => {
  if (raw.type !== 'start') return;
  const m = raw as Start;
  void (async () => {
    const plan = planFleet(m.counts, m.prefix);
    const fleet = await startFleet({
      url: m.url,
      plan,
      secrets: m.secrets,
      seed: 'firmware-bench',
      eventRate: 0,
      httpUrl: m.httpUrl,
      otaFailureRate: m.otaFailureRate,
      connectWaitMs: 120_000,
      restartDelayMs: 2_000,
    });
    let upgraded = 0;
    let failed = 0;
    const downloading = new Set<string>();
    fleet.on('ota', (r) => {
      if (r.report.state === 'downloading') downloading.add(r.deviceId);
      if (r.report.state === 'restarted') upgraded++;
      if (r.report.state === 'failed') failed++;
    });
    send({ type: 'started', devices: fleet.devices.size });
    setInterval(() => {
      const tally: Tally = {
        type: 'tally',
        connected: fleet.stats().connected,
        upgraded,
        failed,
        downloading: downloading.size,
      };
      send(tally);
    }, 1_000).unref();
    process.on('message', (next: { type: string }) => {
      if (next.type === 'stop') void fleet.stop('abrupt').then(() => process.exit(0));
    });
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
