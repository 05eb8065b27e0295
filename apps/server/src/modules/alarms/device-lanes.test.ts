import { describe, expect, it } from 'vitest';
import { DeviceLanes } from './device-lanes.ts';

interface Item {
  device: string;
  n: number;
}

/** A writer whose writes finish when the test says so; it records what each write carried. */
const gatedLanes = () => {
  const writes: string[][] = [];
  const gates: { open: () => void; fail: (e: Error) => void }[] = [];
  const lanes = new DeviceLanes<Item>({
    deviceOf: (i) => i.device,
    retryMs: 1,
    write: (items) => {
      writes.push(items.map((i) => `${i.device}${i.n}`));
      return new Promise<void>((resolve, reject) => gates.push({ open: resolve, fail: reject }));
    },
  });
  const nextGate = async () => {
    for (let i = 0; i < 200 && !gates.length; i++) await new Promise((r) => setTimeout(r, 1));
    const gate = gates.shift();
    if (!gate) throw new Error('no write started');
    return gate;
  };
  return { lanes, writes, nextGate };
};

const settled = async <T>(p: Promise<T>) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 5));
  return done;
};

describe('DeviceLanes', () => {
  it('a hold waits for a write of its device under way, then takes what waits behind it', async () => {
    const { lanes, writes, nextGate } = gatedLanes();
    const a1 = lanes.add({ device: 'A', n: 1 });
    const gate = await nextGate(); // A1 is being written
    void lanes.add({ device: 'A', n: 2 });
    const holding = lanes.hold(['A']);
    expect(await settled(holding)).toBe(false);
    expect(lanes.holdsWaiting).toBe(1);
    gate.open();
    await a1;
    const hold = await holding;
    expect(hold.take().map((i) => i.n)).toEqual([2]);
    hold.end(true);
    expect(lanes.pending).toBe(0);
    expect(writes).toEqual([['A1']]);
  });

  it('a hold does not wait for a write of other devices, and the writer leaves a held lane alone', async () => {
    const { lanes, writes, nextGate } = gatedLanes();
    void lanes.add({ device: 'B', n: 1 });
    const gate = await nextGate();
    const hold = await lanes.hold(['A']);
    void lanes.add({ device: 'A', n: 1 });
    void lanes.add({ device: 'B', n: 2 });
    gate.open();
    (await nextGate()).open();
    // B2 was written; A1 waits for the holder.
    expect(writes).toEqual([['B1'], ['B2']]);
    expect(hold.take().map((i) => `${i.device}${i.n}`)).toEqual(['A1']);
    hold.end(true);
  });

  it('what a holder took but did not commit goes back to the front of its lane and is written first', async () => {
    const { lanes, writes, nextGate } = gatedLanes();
    const hold = await lanes.hold(['A']);
    const a1 = lanes.add({ device: 'A', n: 1 });
    expect(hold.take().map((i) => i.n)).toEqual([1]);
    void lanes.add({ device: 'A', n: 2 });
    // A retried attempt takes the same, and what came since.
    expect(hold.take().map((i) => i.n)).toEqual([1, 2]);
    void lanes.add({ device: 'A', n: 3 });
    hold.end(false);
    (await nextGate()).open();
    await a1;
    expect(writes).toEqual([['A1', 'A2', 'A3']]);
  });

  it('two holders of one device take turns', async () => {
    const { lanes } = gatedLanes();
    const first = await lanes.hold(['A', 'B']);
    const second = lanes.hold(['B']);
    expect(await settled(second)).toBe(false);
    first.end(true);
    (await second).end(true);
  });

  it('a failed write keeps its items in order and retries them before anything added later', async () => {
    const { lanes, writes, nextGate } = gatedLanes();
    void lanes.add({ device: 'A', n: 1 });
    (await nextGate()).fail(new Error('connection lost'));
    void lanes.add({ device: 'A', n: 2 });
    (await nextGate()).open();
    await lanes.drain();
    expect(writes).toEqual([['A1'], ['A1', 'A2']]);
    expect(lanes.failing).toBe(false);
  });

  it('drain waits for a holder to give back what it took', async () => {
    const { lanes, writes, nextGate } = gatedLanes();
    const hold = await lanes.hold(['A']);
    void lanes.add({ device: 'A', n: 1 });
    hold.take();
    const drained = lanes.drain();
    expect(await settled(drained)).toBe(false);
    hold.end(false);
    (await nextGate()).open();
    await drained;
    expect(writes).toEqual([['A1']]);
  });
});
