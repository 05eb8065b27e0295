import type { Language } from '@vigil/contract';
import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { Gauge, Registry } from 'prom-client';
import type { Clock } from '../../../clock.ts';
import type { EventStream } from '../../../core/events.ts';
import type { Log } from '../../../core/log.ts';
import type { Db, Executor } from '../../../db/database.ts';
import { alarmNotifications, alarms, caregivers } from '../../../db/schema.ts';
import { receiversOfResident } from '../bed-alarm-settings.service.ts';
import type { AlarmView } from '../alarm-query.repository.ts';
import { alarmMessage } from '../alarm-record.ts';
import { ALARM_EVENT, type AlarmPayload } from '../../../core/event-catalogue.ts';
import type { AlarmRepository } from '../alarm.repository.ts';
import type { NotifyChannel } from './channels.ts';

/** Tries per notification before it is marked failed; the pause doubles from 2 s up to 5 min. */
export const MAX_ATTEMPTS = 8;
const backoffMs = (attempts: number) => Math.min(300_000, 1_000 * 2 ** attempts);
/** The chat webhook's target: one group per server. */
const WEBHOOK = 'webhook';

type NewNotification = typeof alarmNotifications.$inferInsert;

export interface NotifierDeps {
  db: Db;
  clock: Clock;
  events: EventStream;
  repo: AlarmRepository;
  log: Log;
  channels: readonly NotifyChannel[];
  view: (id: number) => Promise<AlarmView | undefined>;
  language: Language;
  escalateAfterMs: number;
  tickMs?: number;
}

/** A phone number with its middle hidden, for the timeline. */
const masked = (target: string) => (target.length > 6 ? `${target.slice(0, 3)}****${target.slice(-4)}` : target);

/** What planning needs of a raised alarm: the payload of its `alarm.raised` event. */
export type RaisedAlarm = Pick<AlarmPayload, 'id' | 'providerId' | 'residentId' | 'releaseKind'>;

/**
 * Notifications beyond the page. An alarm's stage 1 rows are planned in the transaction that
 * raises it (`plan`, a reaction to `alarm.raised`: decision 0037), so a committed alarm always
 * has them, whatever happens to the process or the database after the commit: its resident's
 * bed's receivers and modes (else its community's) name them, one SMS per receiver and one chat
 * message. A level 1 alarm still open after `escalateAfterMs` goes to the provider's lead
 * caregivers too (stage 2, found by a periodic look at the database). Rows are sent by a loop
 * that claims due rows (SKIP LOCKED: instances never send one twice), retries with backoff,
 * cancels what a release made moot, and keeps each outcome on the alarm's timeline.
 */
export class AlarmNotifier {
  private timer: NodeJS.Timeout | undefined;
  private escalationTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private readonly channels: Map<string, NotifyChannel>;
  /** /metrics: the backlog of notifications waiting to be sent. */
  readonly registry = new Registry();

  constructor(private readonly deps: NotifierDeps) {
    this.channels = new Map(deps.channels.map((c) => [c.name, c]));
    const pending: Gauge<'channel'> = new Gauge({
      name: 'vigil_notifications_pending',
      help: 'Alarm notifications (SMS, chat) planned and not yet sent or given up, by channel; one table, so every instance reports the same',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      collect: async () => {
        // A database that does not answer keeps the last figures: the scrape itself must not fail.
        const backlog = await this.backlog().catch(() => undefined);
        if (!backlog) return;
        pending.reset();
        for (const channel of this.channels.keys()) pending.set({ channel }, backlog.get(channel) ?? 0);
      },
    });
  }

  /** Pending notifications by channel. */
  async backlog(): Promise<Map<string, number>> {
    const rows = await this.deps.db
      .select({ channel: alarmNotifications.channel, n: count() })
      .from(alarmNotifications)
      .where(eq(alarmNotifications.state, 'pending'))
      .groupBy(alarmNotifications.channel);
    return new Map(rows.map((r) => [r.channel, Number(r.n)]));
  }

  start(onError: (error: unknown) => void): void {
    if (!this.channels.size) return;
    const kick = () => void this.kick().catch(onError);
    // Its rows are committed with it: send them now rather than at the next tick.
    this.unsubscribe = this.deps.events.subscribe(
      (event) => {
        if (event.origin === undefined) kick();
      },
      [ALARM_EVENT.raised],
    );
    this.timer = setInterval(kick, this.deps.tickMs ?? 1_000);
    this.timer.unref();
    this.escalationTimer = setInterval(
      () =>
        void this.escalate()
          .then(() => this.kick())
          .catch(onError),
      Math.min(30_000, this.deps.escalateAfterMs),
    );
    this.escalationTimer.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    if (this.escalationTimer) clearInterval(this.escalationTimer);
    await this.running?.catch(() => undefined);
  }

  /** Sends what is due now (also for tests); one run at a time. */
  kick(): Promise<void> {
    this.running ??= this.sendDue().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * The stage 1 rows of newly raised alarms, in the transaction that raises them (`tx`): each
   * alarm's bed's receivers by its modes, else its community's; only for the channels this server
   * has. Planning one again adds nothing (a row per alarm, channel, target and stage).
   */
  async plan(tx: Executor, raised: readonly RaisedAlarm[]): Promise<number> {
    if (!this.channels.size) return 0;
    const now = this.deps.clock.now();
    const receiversOf = new Map<number, Awaited<ReturnType<typeof receiversOfResident>>>();
    const rows: NewNotification[] = [];
    for (const alarm of raised) {
      if (alarm.releaseKind !== 0 || alarm.residentId === null || alarm.providerId === null) continue;
      if (!receiversOf.has(alarm.residentId))
        receiversOf.set(alarm.residentId, await receiversOfResident(tx, alarm.residentId));
      const receivers = receiversOf.get(alarm.residentId);
      if (!receivers) continue;
      const base = { alarmId: alarm.id, providerId: alarm.providerId, stage: 1, nextAt: now };
      if (receivers.notify.includes('sms') && this.channels.has('sms'))
        for (const c of receivers.caregivers)
          if (c.providerId === alarm.providerId)
            rows.push({ ...base, channel: 'sms', target: c.phone, caregiverId: c.id });
      if (receivers.notify.includes('chat') && this.channels.has('chat'))
        rows.push({ ...base, channel: 'chat', target: WEBHOOK });
    }
    return this.enqueue(tx, rows);
  }

  /** Level 1 alarms still open after the escalation time: to the provider's lead caregivers. */
  async escalate(): Promise<number> {
    const { db, clock, escalateAfterMs } = this.deps;
    const due = new Date(clock.now().getTime() - escalateAfterMs);
    const open = await db
      .select({ id: alarms.id, providerId: alarms.providerId })
      .from(alarms)
      .where(
        and(
          eq(alarms.releaseKind, 0),
          eq(alarms.level, 1),
          lte(alarms.raisedAt, due),
          sql`not exists (select 1 from ${alarmNotifications} n where n.alarm_id = ${alarms.id} and n.stage = 2)`,
        ),
      )
      .limit(200);
    let added = 0;
    const now = clock.now();
    for (const alarm of open) {
      if (alarm.providerId === null) continue;
      const leads = await db
        .select()
        .from(caregivers)
        .where(
          and(eq(caregivers.providerId, alarm.providerId), eq(caregivers.level, 'lead'), eq(caregivers.enabled, true)),
        );
      const base = { alarmId: alarm.id, providerId: alarm.providerId, stage: 2, nextAt: now };
      const rows: NewNotification[] = [];
      if (this.channels.has('sms'))
        for (const c of leads) rows.push({ ...base, channel: 'sms', target: c.phone, caregiverId: c.id });
      if (this.channels.has('chat')) rows.push({ ...base, channel: 'chat', target: WEBHOOK });
      // Marks the alarm escalated even with no one to tell, so it is not looked at again.
      if (!rows.length) rows.push({ ...base, channel: 'none', target: 'none', state: 'cancelled' });
      added += await this.enqueue(db, rows);
    }
    return added;
  }

  private async enqueue(executor: Executor, rows: NewNotification[]): Promise<number> {
    if (!rows.length) return 0;
    const inserted = await executor
      .insert(alarmNotifications)
      .values(rows)
      .onConflictDoNothing()
      .returning({ id: alarmNotifications.id });
    return inserted.length;
  }

  private async sendDue(): Promise<void> {
    const { db, clock, repo } = this.deps;
    for (;;) {
      const now = clock.now();
      const due = db
        .select({ id: alarmNotifications.id })
        .from(alarmNotifications)
        .where(and(eq(alarmNotifications.state, 'pending'), lte(alarmNotifications.nextAt, now)))
        .orderBy(asc(alarmNotifications.nextAt))
        .limit(20)
        .for('update', { skipLocked: true });
      // Claimed by pushing next_at ahead: another instance skips them until they are settled.
      const claimed = await db
        .update(alarmNotifications)
        .set({ nextAt: new Date(now.getTime() + 60_000), attempts: sql`${alarmNotifications.attempts} + 1` })
        .where(inArray(alarmNotifications.id, due))
        .returning();
      if (!claimed.length) return;
      for (const n of claimed) {
        const view = await this.deps.view(n.alarmId);
        const at = clock.now();
        if (!view || view.alarm.releaseKind !== 0) {
          await db.update(alarmNotifications).set({ state: 'cancelled' }).where(eq(alarmNotifications.id, n.id));
          continue;
        }
        const channel = this.channels.get(n.channel);
        try {
          if (!channel) throw new Error(`no ${n.channel} gateway configured`);
          await channel.send(n.target, alarmMessage(view, this.deps.language));
          await db.update(alarmNotifications).set({ state: 'sent', sentAt: at }).where(eq(alarmNotifications.id, n.id));
          await repo.addTimeline(db, [
            {
              alarmId: n.alarmId,
              at,
              step: 'notified',
              detail: { channel: n.channel, to: masked(n.target), stage: n.stage },
            },
          ]);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          const last = n.attempts >= MAX_ATTEMPTS;
          await db
            .update(alarmNotifications)
            .set({
              state: last ? 'failed' : 'pending',
              lastError: reason.slice(0, 300),
              nextAt: new Date(at.getTime() + backoffMs(n.attempts)),
            })
            .where(eq(alarmNotifications.id, n.id));
          if (last)
            await repo.addTimeline(db, [
              {
                alarmId: n.alarmId,
                at,
                step: 'notify_failed',
                detail: { channel: n.channel, to: masked(n.target), stage: n.stage, attempts: n.attempts, reason },
              },
            ]);
          else this.deps.log.warn({ channel: n.channel, err: reason }, 'alarm notification not sent; retrying');
        }
      }
    }
  }
}
