import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { deviceColumns, scrollWidth } from './device-columns.tsx';
import { EXPAND_WIDTH, hostColumns } from './gateway-columns.tsx';
import type { DeviceGroup } from './device-model.ts';

const t = ((key: string) => key) as unknown as TFunction;
const none = () => null;
/** The width a list table gets beside the sidebar in a 1440 px window (about 1158 px measured), rounded down. */
const CONTENT_AT_1440 = 1150;

describe('device table widths', () => {
  it.each<DeviceGroup>(['sleep', 'fall', 'security'])(
    'gives every %s column a width and fits a provider’s table beside the sidebar at 1440 px',
    (group) => {
      const columns = deviceColumns({ t, group, showProvider: false, actions: none });
      for (const column of columns) expect(typeof column.width, String(column.key ?? column.title)).toBe('number');
      expect(scrollWidth(columns)).toBeLessThanOrEqual(CONTENT_AT_1440);
    },
  );

  it('fits a provider’s gateway host table too, its expand column included', () => {
    const columns = hostColumns({ t, showProvider: false, maxSubDevices: 49, actions: none });
    for (const column of columns) expect(typeof column.width, String(column.key ?? column.title)).toBe('number');
    expect(scrollWidth(columns, EXPAND_WIDTH)).toBeLessThanOrEqual(CONTENT_AT_1440);
  });

  it('scrolls the wider platform table by the sum of its columns', () => {
    const columns = deviceColumns({ t, group: 'sleep', showProvider: true, uploadSwitch: none, actions: none });
    expect(scrollWidth(columns)).toBe(columns.reduce((sum, c) => sum + Number(c.width), 0));
    expect(scrollWidth(columns)).toBeGreaterThan(CONTENT_AT_1440);
  });
});
