import { RELEASE_KIND } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { DeviceMovedHook } from '../gateway/index.ts';
import { ALARM_EVENT, type AlarmChanged } from '../../core/event-catalogue.ts';
import { alarmPayload } from './alarm-runner.ts';
import type { AlarmRepository } from './alarm.repository.ts';

/** Marks (in the timeline) the release of an alarm its device left behind at a provider it no longer serves. */
const LEFT_BEHIND = 'deviceLeft' satisfies keyof AlarmChanged;

/**
 * Work in every move's transaction (decision 0040): the open alarms a device leaves behind at a
 * provider it no longer serves are released there, awaiting that provider's acknowledgement, so
 * the device's next alarm is raised for its new provider and never counted on the old one's.
 * Their consoles hear the release (their card stays, as for a latched alarm); the engines close
 * the alarm's type for the device, so a condition that still holds is raised again where it serves now.
 */
export const releaseLeftBehind =
  (repo: AlarmRepository, clock: Clock): DeviceMovedHook =>
  async (tx, emit, deviceIds) => {
    const at = clock.now();
    const released = await repo.releaseLeftBehind(tx, deviceIds, at);
    if (!released.length) return;
    await repo.addTimeline(
      tx,
      released.map((alarm) => ({
        alarmId: alarm.id,
        at,
        step: 'released' as const,
        detail: { kind: RELEASE_KIND.automatic, [LEFT_BEHIND]: true },
      })),
    );
    for (const alarm of released)
      emit({
        type: ALARM_EVENT.released,
        providerId: alarm.providerId,
        payload: { alarm: alarmPayload(alarm), deviceLeft: true },
      });
  };
