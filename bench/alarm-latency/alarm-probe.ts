/**
 * The alarm path as a caregiver's console sees it, shared by the benches that measure alarm
 * latency under some other load (alarm-latency.ts, firmware-rollout.ts): consoles logged in on
 * /websocket, badges calling SOS in turn, each alarm's device publish → /alertNotify frame.
 */
import { performance } from 'node:perf_hooks';
import { connectAsync, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { sleep } from '../ingest/support.ts';

/** What a bench runs at its end (sockets closed, clients ended). */
export type Cleanups = (() => Promise<void> | void)[];

/** A console: a socket logged in with the home's key, timing the frames of the alarms it is told of. */
export interface Console {
  ws: WebSocket;
  /** alarm id → when its /alertNotify arrived; and device → last alarm id. */
  frames: Map<string, number>;
  close: () => void;
}
export const openConsoles = async (url: string, key: string, count: number, into: Console[], cleanups: Cleanups) => {
  for (let i = 0; i < count; i++) {
    const ws = new WebSocket(url);
    const frames = new Map<string, number>();
    ws.on('message', (data) => {
      const at = performance.now();
      const text = String(data);
      if (!text.includes('"/alertNotify"')) return;
      const frame = JSON.parse(text) as { data: { deviceId: string; count: number } };
      frames.set(frame.data.deviceId, at);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        ws.send(JSON.stringify({ path: '/login', data: { key } }));
        ws.once('message', (d) => (String(d).includes('"code":200') ? resolve() : reject(new Error(String(d)))));
      });
      ws.once('error', reject);
    });
    const beat = setInterval(() => ws.send(JSON.stringify({ path: '/hearBeat', data: { key, msg: 'ping' } })), 10_000);
    const close = () => {
      clearInterval(beat);
      ws.terminate();
    };
    cleanups.push(close);
    into.push({ ws, frames, close });
  }
};

/** One alarm: when it was published (ms since the epoch, to set beside the server's clock) and its
 * publish → frame latency on each console that got it. */
export interface Fired {
  sentAt: number;
  pairs: number[];
  missing: number;
}

/**
 * Each badge calls SOS then releases it, in turn; every alarm's publish time, by badge. `count`
 * alarms, or as long as `more` says (checked before each), `gapMs` apart.
 */
export const fire = async (
  badges: Map<string, MqttClient>,
  count: number,
  consoles: Console[],
  options: { gapMs: number; more?: () => boolean },
) => {
  const pairs: number[] = [];
  const first: number[] = [];
  const spread: number[] = [];
  const alarms: Fired[] = [];
  let missing = 0;
  let seq = Math.floor(Date.now() % 1e9) * 1000;
  const ids = [...badges.keys()];
  for (let n = 0; n < count && (options.more?.() ?? true); n++) {
    const id = ids[n % ids.length] ?? '';
    const client = badges.get(id);
    if (!client) continue;
    for (const c of consoles) c.frames.delete(id);
    const sentAt = Date.now();
    const at = performance.now();
    await client.publishAsync(
      `vigil/v1/${id}/event`,
      JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'badge_sos' }),
      {
        qos: 1,
      },
    );
    const deadline = performance.now() + 5_000;
    while (consoles.some((c) => !c.frames.has(id)) && performance.now() < deadline) await sleep(2);
    const got = consoles.flatMap((c) => {
      const t = c.frames.get(id);
      return t === undefined ? [] : [t - at];
    });
    missing += consoles.length - got.length;
    alarms.push({ sentAt, pairs: got, missing: consoles.length - got.length });
    pairs.push(...got);
    if (got.length) {
      first.push(Math.min(...got));
      spread.push(Math.max(...got) - Math.min(...got));
    }
    // Released at the badge: the next call from it raises a new alarm (a repeat is not pushed).
    await client.publishAsync(
      `vigil/v1/${id}/event`,
      JSON.stringify({ ts: Date.now() / 1000, seq: ++seq, event: 'device_release' }),
      {
        qos: 1,
      },
    );
    await sleep(options.gapMs);
  }
  return { pairs, first, spread, missing, alarms };
};

/** Every badge connected with its secret, as the device it is. */
export const connectBadges = async (
  mqttPort: number,
  ids: readonly string[],
  secretOf: (id: string) => string,
  cleanups: Cleanups,
) => {
  const badges = new Map<string, MqttClient>();
  for (const id of ids) {
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: id,
      username: id,
      password: secretOf(id),
    });
    badges.set(id, client);
    cleanups.push(() => void client.end(true));
  }
  return badges;
};
