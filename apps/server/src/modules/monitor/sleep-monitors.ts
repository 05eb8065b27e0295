import { DEVICE_TYPES, deviceTypeByCode } from '@vigil/contract';

/** Type codes of the sleep monitors: the devices whose vitals the monitoring screens show. */
export const SLEEP_MONITOR_CODES: readonly number[] = DEVICE_TYPES.filter((t) => t.kind === 'sleep_monitor').map(
  (t) => t.code,
);

export const isSleepMonitor = (typeCode: number): boolean => deviceTypeByCode(typeCode)?.kind === 'sleep_monitor';
