import { RELEASE_KIND, type AlarmType } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { EventStream } from '../../core/events.ts';
import type { Log } from '../../core/log.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { DeviceGateway, DeviceContext } from '../gateway/index.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { alarmHandlers } from './alarm.routes.ts';
import { AlarmRepository } from './alarm.repository.ts';
import { AlarmMetrics } from './alarm-metrics.ts';
import { AlarmService } from './alarm.service.ts';
import { AlarmSettingsService } from './alarm-settings.service.ts';
import { AlarmRunner } from './alarm-runner.ts';
import { ALARM_EVENT, ALARM_SETTINGS_CHANGED, RESIDENT_ABSENCE_CHANGED } from '../../core/event-catalogue.ts';
import { AlarmSpellStore } from './alarm-spell.store.ts';
import { AlarmEngine, VITALS_GAP_MS } from './engine/alarm-engine.ts';
import { minuteOfDayIn } from './local-time.ts';
import { RedisSpellLedger } from './redis-spell-ledger.ts';
import { SharedSpells } from './shared-spells.ts';
import { WatchDirectory } from './watch-directory.ts';
import { BedAlarmSettingsService } from './bed-alarm-settings.service.ts';
import { releaseLeftBehind } from './left-behind.ts';
import { AlarmNotifier } from './notify/alarm-notifier.ts';
import { chatWebhook, httpSms } from './notify/channels.ts';

export interface AlarmDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  config: Config;
  transactions: Transactions;
  events: EventStream;
  gateway: DeviceGateway;
  /** Residents' sleep settings (the bed-leaving watch's hours). */
  sleepSettings: Pick<SleepSettingService, 'narrowedLeaveBedWatches'>;
  log: Log;
}

/**
 * The alarms module: the engine on the gateway's streams (its runner is a background part,
 * started after the gateway module's, stopped before it), and the alarm store.
 */
export const buildAlarmsModule = (
  deps: AlarmDeps,
): Module<ReturnType<typeof buildAlarmServices>, ReturnType<typeof alarmHandlers>> => {
  const services = buildAlarmServices(deps);
  const { spellLedger } = services;
  return {
    services,
    handlers: alarmHandlers(services.alarms, services.settings, services.bedSettings),
    parts: [
      // Before the engine, which asks it for every sample; stopped after it.
      ...(spellLedger
        ? [{ name: 'shared alarm spells (Redis)', start: () => spellLedger.start(), stop: () => spellLedger.stop() }]
        : []),
      {
        name: 'alarm engine',
        start: (report) => services.runner.start(report),
        stop: () => services.runner.stop(),
      },
      {
        name: 'alarm notifications',
        start: (report) => services.notifier.start(report),
        stop: () => services.notifier.stop(),
      },
    ],
  };
};

const buildAlarmServices = (deps: AlarmDeps) => {
  const repo = new AlarmRepository();
  const metrics = new AlarmMetrics();
  const engine = new AlarmEngine(minuteOfDayIn(deps.config.timeZone));
  const settings = new AlarmSettingsService(deps.db, deps.clock, deps.transactions, deps.audit);
  const bedSettings = new BedAlarmSettingsService(deps.db, deps.clock, deps.transactions, deps.audit);
  const watch = new WatchDirectory(
    deps.db,
    deps.clock,
    () => settings.all(),
    () => bedSettings.all(),
    deps.sleepSettings,
  );
  // Several instances share each device's samples (REDIS_URL): its duration spells are kept in Redis (decision 0039).
  const spellLedger = deps.config.redisUrl
    ? new RedisSpellLedger(deps.config.redisUrl, deps.log, VITALS_GAP_MS)
    : undefined;
  const runner = new AlarmRunner({
    db: deps.db,
    transactions: deps.transactions,
    clock: deps.clock,
    engine,
    watch,
    directory: deps.gateway.directory,
    feed: deps.gateway.feed,
    repo,
    spells: new AlarmSpellStore(deps.db),
    shared: spellLedger ? new SharedSpells({ engine, ledger: spellLedger, metrics, log: deps.log }) : undefined,
    metrics,
    log: deps.log,
  });
  deps.gateway.onEventsStored({ ready: runner.ready, begin: (rows) => runner.beginEvents(rows) });
  const alarms = new AlarmService(
    deps.db,
    deps.clock,
    deps.transactions,
    repo,
    deps.audit,
    deps.config.timeZone,
    (providerId, level) => watch.voiceWayOf(providerId, level),
  );
  // New levels and voice ways reach the engine at once, not at the next periodic reload.
  deps.events.subscribe(() => {
    watch.load().catch((error: unknown) => deps.log.warn({ err: String(error) }, 'alarm settings not reloaded'));
  }, [ALARM_SETTINGS_CHANGED]);
  // A handled alarm is closed in the engine too: not raised again while its condition holds,
  // until the level's snooze is over. One that had cleared by itself (latched) was closed then;
  // a new spell of its type may be open meanwhile and must not be taken for it.
  deps.events.subscribe(
    (event) => {
      const { alarm } = event.payload;
      if (alarm.releaseKind !== RELEASE_KIND.software) return;
      engine.closed({ deviceId: alarm.deviceId, type: alarm.alertType as AlarmType }, 'handled', deps.clock.now());
    },
    [ALARM_EVENT.handled],
  );
  // Counted where they happen: an event relayed from another instance is that instance's count.
  deps.events.subscribe(
    (event) => {
      if (event.origin !== undefined) return;
      const { alarm } = event.payload;
      if (event.type === ALARM_EVENT.handled) metrics.countHandled(alarm.level);
      else if (event.type === ALARM_EVENT.released) metrics.countReleased(alarm.alertType);
      else metrics.countRaised(alarm.level, alarm.alertType);
    },
    [ALARM_EVENT.raised, ALARM_EVENT.repeated, ALARM_EVENT.released, ALARM_EVENT.handled],
  );
  // Raised or released on another instance (which took part of the same device's telemetry).
  deps.events.subscribe(
    (event) => {
      const { alarm } = event.payload;
      // Left behind at a provider its device no longer serves (here or elsewhere): decided afresh where it serves now.
      if (event.payload.deviceLeft === true) {
        engine.closed({ deviceId: alarm.deviceId, type: alarm.alertType as AlarmType }, 'left behind');
        return;
      }
      if (event.origin === undefined) return;
      runner.heardElsewhere(event.type as (typeof ALARM_EVENT)['raised' | 'released'], alarm);
    },
    [ALARM_EVENT.raised, ALARM_EVENT.released],
  );
  // Every move's transaction releases what its devices leave behind at a provider they no longer serve.
  deps.gateway.moves.onMoved(releaseLeftBehind(repo, deps.clock));
  // A move reaches the engine as soon as the directory has it: what it raises from then on, an
  // empty room found by the passing of time included, names where the device is now.
  const replace = (contexts: Iterable<DeviceContext>) => {
    const now = deps.clock.now();
    for (const context of contexts) engine.moved(watch.subject(context, now));
  };
  deps.gateway.directory.onChange((changed) => {
    try {
      replace(changed);
    } catch (error) {
      deps.log.error({ err: String(error) }, 'moved devices not re-placed in the alarm engine');
    }
  });
  // A resident away or back: the bed-leaving watch pauses or resumes from the next sample on.
  deps.events.subscribe(
    (event) => {
      const { residentId, absences } = event.payload;
      watch.setAbsences(
        residentId,
        absences.map((a) => ({
          startsAt: new Date(a.startsAt),
          endsAt: a.endsAt === null ? null : new Date(a.endsAt),
        })),
      );
      replace([...deps.gateway.directory.all()].filter((context) => context.residentId === residentId));
    },
    [RESIDENT_ABSENCE_CHANGED],
  );
  const channels = [
    ...(deps.config.notify.sms ? [httpSms(deps.config.notify.sms.url, deps.config.notify.sms.key)] : []),
    ...(deps.config.notify.chatWebhook ? [chatWebhook(deps.config.notify.chatWebhook)] : []),
  ];
  const notifier = new AlarmNotifier({
    db: deps.db,
    clock: deps.clock,
    events: deps.events,
    repo,
    log: deps.log,
    channels,
    view: (id) => alarms.view(id),
    language: deps.config.notify.language,
    escalateAfterMs: deps.config.notify.escalateAfterMs,
  });
  // A raised alarm's notification rows commit with it, in its own transaction, whichever writer
  // stores it (the gateway's event batch or the runner's queue): never an alarm without them.
  deps.transactions.react([ALARM_EVENT.raised], async (tx, raised) => {
    await notifier.plan(
      tx,
      raised.map((event) => event.payload.alarm),
    );
  });
  return { repo, engine, watch, runner, alarms, settings, bedSettings, notifier, metrics, spellLedger };
};
