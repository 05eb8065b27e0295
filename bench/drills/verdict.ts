import pg from 'pg';
import type { Stage } from './stage.ts';

/** Device events that raise an alarm (docs/alarms.md), among what the fleet and the badges send. */
const RAISING = new Set(['sos', 'badge_sos', 'fall', 'fall_suspected', 'sitting_up_suspected', 'door']);

export interface Verdict {
  /** Instances that exited during the drill. */
  exits: number;
  /** Events the broker acknowledged to a device (QoS 1 PUBACK) that were never stored. */
  acknowledgedEvents: number;
  acknowledgedLost: number;
  /** Of those, the calls for help and other alarm-raising events. */
  acknowledgedAlarmEvents: number;
  acknowledgedAlarmEventsLost: number;
  /** Events stored more than once. */
  doubles: number;
  /** CONNECTION alarms raised in the window: no device was taken offline, so every one is false. */
  falseConnectionAlarms: number;
  /** Alarms raised in the window, and on how many consoles each was pushed (ideal: all on both). */
  alarmsRaised: number;
  pushedToAll: number;
  /**
   * Sent by the device → taken by an instance (the stored row's received_at), over the
   * acknowledged events that were stored, ms; and how many took over 10 s.
   */
  storeP50: number;
  storeP99: number;
  storeMax: number;
  storedLate: number;
  /** Sent by the device → its PUBACK (after the commit), ms; and how many took over 10 s. */
  ackP50: number;
  ackP99: number;
  ackMax: number;
  ackLate: number;
  /** The same split where the broker observer saw the event: the device's side and the instances' side. */
  toBrokerP99: number;
  toBrokerMax: number;
  toBrokerLate: number;
  brokerToStoredP99: number;
  brokerToStoredMax: number;
  brokerToStoredLate: number;
  /** Simulated devices that lost their broker connection in the window. */
  deviceDisconnects: number;
  /** Transactions PostgreSQL ended as deadlocked over the whole drill. */
  deadlocks: number;
  /** Raised → first frame, over every (alarm, console) pair that got a frame, ms. */
  frameP50: number;
  frameP99: number;
  frameMax: number;
  /** Open alarms (in the database at the end) a console does not show, summed over the consoles. */
  openNotShown: number;
  checkAlarms: number[];
  consoleCloses: number[][];
  /** Per console: ms from each close until it was back with its pending list. */
  consoleRecoveries: number[][];
}

const quantile = (sorted: number[], q: number): number =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) : 0;

/**
 * Judges a drill against the ground truth, in its window: from `windowStart` until the devices
 * were stopped (their goodbyes raise CONNECTION alarms that are true).
 */
export const judge = async (
  stage: Stage,
  windowStart: Date,
  windowEnd: Date,
  /** What each console showed when the devices stopped. */
  shown: readonly ReadonlySet<number>[],
): Promise<Verdict> => {
  const db = new pg.Client({ connectionString: stage.databaseUrl });
  await db.connect();
  try {
    const truth = [
      ...stage.sent
        .filter((m) => m.qos === 1 && new Date(m.at) >= windowStart)
        .map((m) => ({
          deviceId: m.deviceId,
          seq: m.seq,
          event: String(m.payload.event),
          acked: m.acked,
          sentAt: new Date(m.at).getTime(),
          ackedAt: m.ackedAt ? new Date(m.ackedAt).getTime() : undefined,
        })),
      ...(stage.presser?.presses ?? [])
        .filter((p) => p.sentAt >= windowStart.getTime())
        .map((p) => ({
          deviceId: p.deviceId,
          seq: p.seq,
          event: p.event,
          acked: p.acked,
          sentAt: p.sentAt,
          ackedAt: p.ackedAt,
        })),
    ];
    const acked = truth.filter((t) => t.acked);
    const { rows: stored } = await db.query<{ device_id: string; seq: string; n: string; first: Date }>(
      `select device_id, seq::text, count(*)::text as n, min(received_at) as first from device_event
        where seq is not null and received_at >= $1::timestamptz - interval '10 minutes'
        group by device_id, seq`,
      [windowStart.toISOString()],
    );
    const storedKeys = new Set(stored.map((r) => `${r.device_id}\u0000${r.seq}`));
    const lost = acked.filter((t) => !storedKeys.has(`${t.deviceId}\u0000${t.seq}`));
    const storedAt = new Map(stored.map((r) => [`${r.device_id}\u0000${r.seq}`, r.first.getTime()]));
    const storeDelays = acked
      .map((t) => (storedAt.get(`${t.deviceId}\u0000${t.seq}`) ?? NaN) - t.sentAt)
      .filter((ms) => Number.isFinite(ms))
      .sort((a, b) => a - b);
    // The device's own end to end: published → its PUBACK, which the server sends after the commit.
    const ackDelays = acked
      .flatMap((t) => (t.ackedAt === undefined ? [] : [t.ackedAt - t.sentAt]))
      .sort((a, b) => a - b);
    const seen = stage.observer?.seen ?? new Map<string, number>();
    const split = acked.flatMap((t) => {
      const key = `${t.deviceId.toUpperCase()}\u0000${t.seq}`;
      const atBroker = seen.get(key);
      const stored = storedAt.get(`${t.deviceId}\u0000${t.seq}`);
      return atBroker === undefined || stored === undefined
        ? []
        : [{ toBroker: atBroker - t.sentAt, toStored: stored - atBroker }];
    });
    const toBroker = split.map((s) => s.toBroker).sort((a, b) => a - b);
    const toStored = split.map((s) => s.toStored).sort((a, b) => a - b);

    const { rows: raised } = await db.query<{ id: string; alert_type: string; raised_at: Date }>(
      `select id::text, alert_type, raised_at from alarm where raised_at >= $1 and raised_at < $2 and provider_id = $3`,
      [windowStart.toISOString(), windowEnd.toISOString(), stage.home.providerId],
    );
    // What a caregiver should see when the devices stopped: the alarms then open (not the goodbyes' alarms).
    const { rows: open } = await db.query<{ id: string }>(
      `select id::text from alarm where provider_id = $1 and raised_at >= now() - interval '1 hour'
          and raised_at < $2 and (release_kind = 0 or awaiting_ack or released_at >= $2)`,
      [stage.home.providerId, windowEnd.toISOString()],
    );
    const latencies: number[] = [];
    let pushedToAll = 0;
    for (const alarm of raised) {
      const id = Number(alarm.id);
      const frames = stage.consoles.map((c) => c.pushed.get(id));
      if (frames.every((at) => at !== undefined)) pushedToAll++;
      for (const at of frames) if (at !== undefined) latencies.push(at - alarm.raised_at.getTime());
    }
    latencies.sort((a, b) => a - b);
    const { rows: stats } = await db.query<{ deadlocks: string }>(
      `select deadlocks::text from pg_stat_database where datname = current_database()`,
    );
    return {
      deadlocks: Number(stats[0]?.deadlocks ?? 0),
      exits: stage.instances.filter(
        (i) => !stage.killed.has(i) && (i.child.exitCode !== null || i.child.signalCode !== null),
      ).length,
      acknowledgedEvents: acked.length,
      acknowledgedLost: lost.length,
      acknowledgedAlarmEvents: acked.filter((t) => RAISING.has(t.event)).length,
      acknowledgedAlarmEventsLost: lost.filter((t) => RAISING.has(t.event)).length,
      doubles: stored.filter((r) => Number(r.n) > 1).length,
      falseConnectionAlarms: raised.filter((a) => a.alert_type === 'CONNECTION').length,
      alarmsRaised: raised.length,
      pushedToAll,
      storeP50: quantile(storeDelays, 0.5),
      storeP99: quantile(storeDelays, 0.99),
      storeMax: storeDelays.at(-1) ?? 0,
      storedLate: storeDelays.filter((ms) => ms > 10_000).length,
      ackP50: quantile(ackDelays, 0.5),
      ackP99: quantile(ackDelays, 0.99),
      ackMax: ackDelays.at(-1) ?? 0,
      ackLate: ackDelays.filter((ms) => ms > 10_000).length,
      toBrokerP99: quantile(toBroker, 0.99),
      toBrokerMax: toBroker.at(-1) ?? 0,
      toBrokerLate: toBroker.filter((ms) => ms > 10_000).length,
      brokerToStoredP99: quantile(toStored, 0.99),
      brokerToStoredMax: toStored.at(-1) ?? 0,
      brokerToStoredLate: toStored.filter((ms) => ms > 10_000).length,
      deviceDisconnects: stage.disconnects.filter((at) => at >= windowStart.getTime() && at <= windowEnd.getTime())
        .length,
      frameP50: quantile(latencies, 0.5),
      frameP99: quantile(latencies, 0.99),
      frameMax: latencies.at(-1) ?? 0,
      openNotShown: shown.reduce((sum, pending) => sum + open.filter((a) => !pending.has(Number(a.id))).length, 0),
      checkAlarms: stage.consoles.map((c) => c.checkAlarms),
      consoleCloses: stage.consoles.map((c) => c.closes),
      consoleRecoveries: stage.consoles.map((c) => c.recoveries),
    };
  } finally {
    await db.end();
  }
};

/** The promise of issue 28: nothing acknowledged lost, no false offline alarm, no instance gone, every open alarm shown. */
export const passes = (v: Verdict): boolean =>
  v.exits === 0 && v.acknowledgedLost === 0 && v.falseConnectionAlarms === 0 && v.openNotShown === 0 && v.doubles === 0;
