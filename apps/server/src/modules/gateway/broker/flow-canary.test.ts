import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { FlowCanary } from './flow-canary.ts';

/** The part of an MQTT client a canary uses: what it published. */
const fakeClient = () => {
  const published: string[] = [];
  const client = {
    connected: true,
    publish: (topic: string) => {
      published.push(topic);
      return client;
    },
  };
  return { client: client as unknown as MqttClient, published };
};

describe('the flow canary of a broker connection', () => {
  it('is flowing only after a round trip on the current subscription, and misses one that does not come back', () => {
    let now = 1_000_000;
    const canary = new FlowCanary('vigil-host-ev1', () => now, { everyMs: 5_000, timeoutMs: 10_000 });
    const { client, published } = fakeClient();
    expect(canary.subscription).toBe('$share/canary-vigil-host-ev1/vigil/canary/vigil-host-ev1');
    expect(canary.isCanary('vigil/canary/vigil-host-ev1')).toBe(true);
    expect(canary.isCanary('vigil/v1/X/event')).toBe(false);

    canary.subscribed();
    expect(canary.flowing).toBe(false);
    expect(canary.tick(client)).toBe('ok');
    expect(published).toHaveLength(1);
    now += 20;
    canary.received();
    expect(canary.flowing).toBe(true);

    // The next goes out after everyMs; one that never comes back is missed after timeoutMs.
    now += 4_000;
    canary.tick(client);
    expect(published).toHaveLength(1);
    now += 1_000;
    canary.tick(client);
    expect(published).toHaveLength(2);
    now += 9_000;
    expect(canary.tick(client)).toBe('ok');
    expect(canary.flowing).toBe(true);
    now += 2_000;
    expect(canary.tick(client)).toBe('missed');
    expect(canary.missedInARow).toBe(1);
    expect(canary.flowing).toBe(false);

    // A new subscription (reconnect) is not flowing on the strength of an earlier round trip.
    canary.received();
    expect(canary.flowing).toBe(true);
    now += 1;
    canary.subscribed();
    expect(canary.flowing).toBe(false);
    expect(canary.missedInARow).toBe(0);
  });

  it('does not miss a canary that waits behind device messages still coming, and misses it once they stop', () => {
    let now = 1_000_000;
    const canary = new FlowCanary('vigil-host-ev1', () => now, { everyMs: 5_000, timeoutMs: 10_000 });
    const { client, published } = fakeClient();
    canary.subscribed();
    canary.tick(client);
    expect(published).toHaveLength(1);
    // A burst: device messages every second for 30 s, the canary behind them all.
    for (let s = 0; s < 30; s++) {
      now += 1_000;
      canary.heard();
      expect(canary.tick(client)).toBe('ok');
      expect(canary.flowing).toBe(true);
    }
    expect(canary.missedInARow).toBe(0);
    expect(published).toHaveLength(1);
    // Then nothing: missed timeoutMs after the last message, not before.
    now += 10_000;
    expect(canary.tick(client)).toBe('ok');
    now += 1;
    expect(canary.tick(client)).toBe('missed');
    expect(canary.missedInARow).toBe(1);
    now += 5_000;
    expect(canary.flowing).toBe(false);
  });

  it('names the canary of a client id with characters a topic cannot carry', () => {
    const canary = new FlowCanary('vigil/a+b#c');
    expect(canary.topic).toBe('vigil/canary/vigil_a_b_c');
    expect(canary.subscription.split('/').slice(0, 2)).toEqual(['$share', 'canary-vigil_a_b_c']);
  });
});
