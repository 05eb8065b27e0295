import { describe, expect, it } from 'vitest';
import { hasMosquitto } from '../../apps/server/src/test/private-mosquitto.ts';
import { until } from '../../apps/server/src/test/until.ts';
import { Stage } from '../../bench/drills/stage.ts';
import { judge, passes } from '../../bench/drills/verdict.ts';
import { hasHaproxy } from './balancer.ts';

const missing = [
  !process.env.DATABASE_URL && 'DATABASE_URL',
  !process.env.REDIS_URL && 'REDIS_URL',
  !hasMosquitto() && 'the mosquitto package',
  !hasHaproxy() && 'the haproxy package',
].filter(Boolean);

/**
 * The multi-instance deployment of docs/operations.md as `npm run cluster` starts it: three
 * instances on PostgreSQL, Mosquitto and Redis behind HAProxy with deploy/haproxy/vigil.cfg,
 * consoles through the balancer. One instance is killed with SIGKILL: its consoles are back
 * through the balancer within 10 s with their pending lists, badges' calls for help keep
 * reaching every console, and once it is restarted nothing the broker acknowledged is lost.
 * (The full drill, with 200 devices and figures: `npm run drill -- kill-instance`.)
 */
describe.skipIf(missing.length > 0)(
  `three instances behind HAProxy${missing.length ? ` — skipped: needs ${missing.join(', ')}` : ''}`,
  () => {
    it('an instance killed with SIGKILL costs no acknowledged call for help and its consoles come back within 10 s', async () => {
      const stage = new Stage({ devices: 'button=4,sleep=4', pressers: 6, balanced: true, log: () => undefined });
      try {
        await stage.start();
        // Each instance took a console (least connections) before the fault.
        await until(async () => (await stage.balancer?.serving())?.every(Boolean) ?? false, {
          what: 'the balancer sends to every instance',
          timeoutMs: 30_000,
        });
        const windowStart = new Date();
        await new Promise((resolve) => setTimeout(resolve, 15_000));

        const before = stage.consoles.map((c) => c.recoveries.length);
        const closesBefore = stage.consoles.map((c) => c.closes.length);
        await stage.kill(1);
        const wasCut = (i: number) => (stage.consoles[i]?.closes.length ?? 0) > (closesBefore[i] ?? 0);
        await until(() => stage.consoles.some((_, i) => wasCut(i)), {
          what: 'the killed instance’s consoles lose their socket',
          timeoutMs: 15_000,
        });
        await until(() => stage.consoles.every((c, i) => !wasCut(i) || c.recoveries.length > (before[i] ?? 0)), {
          what: 'the killed instance’s consoles are back',
          timeoutMs: 30_000,
        });
        const cut = stage.consoles.filter((_, i) => wasCut(i));
        for (const console of cut) expect(console.recoveries.at(-1)).toBeLessThanOrEqual(10_000);
        // The balancer stopped sending to it.
        await until(async () => (await stage.balancer?.serving())?.[1] === false, {
          what: 'the balancer takes the killed instance out',
          timeoutMs: 10_000,
        });

        await new Promise((resolve) => setTimeout(resolve, 15_000));
        await stage.restart(1);
        await new Promise((resolve) => setTimeout(resolve, 20_000));
        const windowEnd = new Date();
        const shown = stage.consoles.map((c) => new Set(c.pending));
        await stage.stopDevices();
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        const verdict = await judge(stage, windowStart, windowEnd, shown);
        expect(verdict.acknowledgedAlarmEvents).toBeGreaterThan(0);
        expect(verdict).toMatchObject({
          acknowledgedLost: 0,
          doubles: 0,
          falseConnectionAlarms: 0,
          openNotShown: 0,
          exits: 0,
        });
        expect(passes(verdict)).toBe(true);
      } finally {
        await stage.close();
      }
    });
  },
);
