import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { describe, expect, it } from 'vitest';
import { startFleet } from './fleet.ts';
import { parseTruthLog } from './truth-log.ts';

/** A broker that goes away and comes back on the same port, recording what it receives. */
const startBroker = async (port = 0) => {
  const broker = await Aedes.createBroker();
  const received: { topic: string; body: Record<string, unknown>; from: string | null }[] = [];
  broker.on('publish', (packet, client) => {
    if (packet.topic.startsWith('vigil/')) {
      received.push({ topic: packet.topic, body: JSON.parse(packet.payload.toString()), from: client?.id ?? null });
    }
  });
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port: (server.address() as AddressInfo).port, received, stop };
};

describe('a broker outage', () => {
  it('keeps events raised meanwhile and delivers them, same seq, once the broker is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-sim-outage-'));
    const first = await startBroker();
    const fleet = await startFleet({
      url: `mqtt://127.0.0.1:${first.port}`,
      devices: 'sleep=1,button=1',
      prefix: 'O',
      seed: 'outage',
      eventRate: 0,
      tickMs: 100,
      reconnectPeriod: 100,
      truthLog: join(dir, 'truth.jsonl'),
    });
    let second: Awaited<ReturnType<typeof startBroker>> | null = null;
    try {
      fleet.trigger('O-BTN-0001', 'sos');
      const until = async (check: () => boolean) => {
        const end = Date.now() + 5000;
        while (!check()) {
          if (Date.now() > end) throw new Error('timed out');
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await until(() => first.received.some((m) => m.body.event === 'sos'));
      await first.stop();
      await until(() => fleet.stats().connected === 0);
      // Raised while the broker is down: the host's client keeps it.
      fleet.trigger('O-BTN-0001', 'sos');
      await new Promise((r) => setTimeout(r, 300));
      second = await startBroker(first.port);
      const b = second;
      await until(() => b.received.some((m) => m.body.event === 'sos'));
      await until(() => fleet.stats().connected === 2);
      const resent = b.received.filter((m) => m.topic === 'vigil/v1/O-BTN-0001/event');
      expect(resent).toHaveLength(1);
      expect(resent[0]?.from).toBe('O-GW-0001');
      // Back on line: a fresh status.
      expect(b.received.some((m) => m.topic === 'vigil/v1/O-SLP-0001/status' && m.body.online === true)).toBe(true);
      await fleet.stop('graceful');
      const sos = parseTruthLog(readFileSync(join(dir, 'truth.jsonl'), 'utf8')).filter(
        (l) => l.payload.event === 'sos',
      );
      expect(sos).toHaveLength(2);
      expect(sos.every((l) => l.acked)).toBe(true);
      expect(sos[1]?.seq).toBe(resent[0]?.body.seq);
      expect(sos[1]?.seq).toBeGreaterThan(sos[0]?.seq ?? Infinity);
    } finally {
      await fleet.stop('abrupt');
      await second?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
