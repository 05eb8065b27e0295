import { RELEASE_KIND } from '@vigil/contract';
import type { WatchRelease, WatchTarget } from './engine-types.ts';

/**
 * The rules of a release at a nurse watch that names its alarm (decision 0031). Pure: the
 * engine reads the target from the event, the runner explains a release that changed nothing.
 */

/** How far a watch's clock may lag the clock of the device whose alarm it releases. */
export const WATCH_CLOCK_SKEW_MS = 30_000;

/** What a `watch_release` event names; undefined when it names nothing (the first watches' release). */
export const watchTarget = (detail: Readonly<Record<string, unknown>>): WatchTarget | undefined => {
  const { alarmId, deviceId } = detail;
  const target: WatchTarget = {
    alarmId: typeof alarmId === 'number' && Number.isSafeInteger(alarmId) && alarmId > 0 ? alarmId : null,
    // Stored IDs are upper case: a watch writing one in lower case still names the device.
    deviceId: typeof deviceId === 'string' && deviceId ? deviceId.toUpperCase() : null,
  };
  return target.alarmId === null && target.deviceId === null ? undefined : target;
};

/** Why a named release released nothing; each is logged and counted, none is an error. */
export type WatchRefusal = 'unknown' | 'foreign' | 'not_open' | 'not_releasable';

/** An alarm as far as a refusal is explained. */
export interface NamedAlarm {
  deviceId: string;
  providerId: number | null;
  releaseKind: number;
}

/**
 * Why a watch release released nothing, from the alarms it named whatever their state: the
 * alarm of that id, or the device's open alarms. Another provider's alarm is `foreign` and never
 * released; one already released (by a caregiver, the device, another watch) is `not_open`; an
 * open one of its provider was a device's fault or, named by its device, began after the press.
 */
export const refusalOf = (d: WatchRelease, named: readonly NamedAlarm[]): WatchRefusal => {
  const { alarmId, deviceId } = d.target;
  if (alarmId !== null) {
    const [alarm] = named;
    if (!alarm || (deviceId !== null && alarm.deviceId !== deviceId)) return 'unknown';
    if (d.watch.providerId === null || alarm.providerId !== d.watch.providerId) return 'foreign';
    return alarm.releaseKind === RELEASE_KIND.none ? 'not_releasable' : 'not_open';
  }
  const open = named.filter((a) => a.releaseKind === RELEASE_KIND.none);
  if (!open.length) return 'not_open';
  if (d.watch.providerId === null || open.some((a) => a.providerId !== d.watch.providerId)) return 'foreign';
  return 'not_releasable';
};
