import { describe, expect, it } from 'vitest';
import { Lifecycle } from './lifecycle.ts';

const recorder = () => {
  const log: string[] = [];
  const part = (name: string, fail?: 'start' | 'stop') => ({
    name,
    start: () => {
      if (fail === 'start') throw new Error(`${name} cannot start`);
      log.push(`start ${name}`);
    },
    stop: async () => {
      if (fail === 'stop') throw new Error(`${name} cannot stop`);
      log.push(`stop ${name}`);
    },
  });
  return { log, part };
};

describe('lifecycle', () => {
  it('starts in order and stops in reverse: producers stop before the writers flush', async () => {
    const { log, part } = recorder();
    const lifecycle = new Lifecycle().add(part('writer')).add(part('stream')).add(part('broker'));
    await lifecycle.start(() => undefined);
    await lifecycle.stop(() => undefined);
    expect(log).toEqual(['start writer', 'start stream', 'start broker', 'stop broker', 'stop stream', 'stop writer']);
    await lifecycle.stop(() => undefined);
    expect(log).toHaveLength(6);
  });

  it('stops what started when a later part cannot start', async () => {
    const { log, part } = recorder();
    const lifecycle = new Lifecycle().add(part('writer')).add(part('broker', 'start'));
    await expect(lifecycle.start(() => undefined)).rejects.toThrow('broker cannot start');
    expect(log).toEqual(['start writer', 'stop writer']);
  });

  it('reports a part that fails to stop and still stops the others', async () => {
    const { log, part } = recorder();
    const reported: string[] = [];
    const lifecycle = new Lifecycle().add(part('writer')).add(part('stream', 'stop')).add(part('broker'));
    await lifecycle.start(() => undefined);
    await lifecycle.stop((name, error) => reported.push(`${name}: ${String(error)}`));
    expect(log).toEqual(['start writer', 'start stream', 'start broker', 'stop broker', 'stop writer']);
    expect(reported).toEqual(['stream: Error: stream cannot stop']);
  });
});
