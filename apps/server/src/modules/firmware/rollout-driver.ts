import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DeviceStatus } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { beds, firmwarePackages } from '../../db/schema.ts';
import type { BackgroundPacer } from '../../core/background-pacer.ts';
import type { Part } from '../../core/lifecycle.ts';
import { minuteOfDayIn } from '../alarms/local-time.ts';
import type { CommandAnswer, CommandService } from '../devices/command.service.ts';
import type { DeviceFeed } from '../gateway/index.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { effectiveSleepSetting } from '../sleep-settings/sleep-setting.policy.ts';
import { compareFirmwareVersions, parseFirmwareVersion } from './firmware-version.ts';
import { IN_FLIGHT, WAITING, type FirmwareRepository, type RolloutRecord } from './firmware.repository.ts';
import { nextStep, rolloutCounts } from './rollout-rules.ts';

/** The download address a device is sent (relative to the server's HTTP address it is configured with). */
export const DOWNLOAD_PATH = '/hardSoft/download';

/** At most this many upgrades of one rollout under way at once: downloads share the server's uplink. */
export const MAX_IN_FLIGHT = 100;

/** Vitals older than this say nothing about whether the bed is occupied now. */
const FRESH_VITALS_MS = 2 * 60_000;

export interface RolloutDriverOptions {
  /** How often rollouts are looked at. */
  everyMs: number;
  /** An upgrade the device has said nothing about for this long fails. */
  timeoutMs: number;
  /** How long a download address lives. */
  linkMs: number;
  timeZone: string;
  /**
   * Runs the driver's queries one at a time, giving way to the live path (decision 0028): on
   * PGlite every query takes the server's own thread. None: queries run as they come (tests).
   */
  pacer?: BackgroundPacer;
}

/** Thrown to roll a send back when the upgrade was no longer waiting. */
const NOT_TAKEN = new Error('upgrade no longer waiting');

/** Device statuses are gathered this long, then handled together. */
const INBOX_MS = 500;

/** A look after a device's report waits this long, so a rollout's reports make a look a second or so, not one each. */
const REPORT_LOOK_DELAY_MS = 1_000;

/**
 * Carries firmware rollouts out (docs/firmware.md): every look (and at once after a release,
 * a control or a device coming online) it fails upgrades the device went silent on, pauses a
 * rollout whose open stage failed too often, sends `ota` commands to the open stages' online
 * devices — deferring those whose bed is occupied in its sleep window unless the release forces
 * them — and opens the next stage when the open one has settled. What devices report (their
 * `status` with `ota` progress and `fw`, their answers to `ota`) moves each upgrade on.
 *
 * Every change is a conditional update from the states it may leave, so several instances can
 * run a driver each: two looks never send one upgrade twice, and a device's report is taken once.
 */
export class RolloutDriver implements Part {
  readonly name = 'firmware-rollouts';
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Device reports are handled one after another, off the feed's synchronous handlers. */
  private reports: Promise<void> = Promise.resolve();
  /** Device statuses not yet looked at: taken together, a batch a step (see takeInbox). */
  private inbox: { deviceRowId: number; status: DeviceStatus }[] = [];
  private inboxTimer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly minuteOfDay: (at: Date) => number;
  private onError: (error: unknown) => void = () => undefined;

  /** One of the driver's database steps, paced when a pacer is given. */
  private step<T>(work: () => Promise<T>): Promise<T> {
    return this.options.pacer ? this.options.pacer.step(work) : work();
  }

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly repo: FirmwareRepository,
    private readonly commands: CommandService,
    private readonly feed: DeviceFeed,
    /** Residents' sleep settings: a device is not upgraded in its resident's sleep hours while in bed. */
    private readonly sleepSettings: Pick<SleepSettingService, 'savedOfMany'>,
    private readonly options: RolloutDriverOptions,
  ) {
    this.minuteOfDay = minuteOfDayIn(options.timeZone);
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    this.onError = onError;
    this.timer = setInterval(() => this.poke(0), this.options.everyMs);
    this.timer.unref();
    this.unsubscribe.push(
      this.feed.subscribe(
        (item) => {
          if (item.kind === 'status' && item.context.deviceRowId !== null) {
            const deviceRowId = item.context.deviceRowId;
            this.inbox.push({ deviceRowId, status: item.status });
            this.inboxTimer ??= setTimeout(() => this.takeInbox(), INBOX_MS);
          }
        },
        ['status'],
      ),
      this.commands.onAnswered((answer) => {
        if (answer.command === 'ota' && !answer.ok) this.queueReport(() => this.step(() => this.onRefused(answer)));
      }),
    );
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.timer = undefined;
    this.takeInbox();
    for (const off of this.unsubscribe.splice(0)) off();
    await this.running?.catch(() => undefined);
    await this.reports.catch(() => undefined);
  }

  /** A look soon (coalesced): after a release or a control, or when a device came online. */
  poke(delayMs = 100): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.look().catch(this.onError);
    }, delayMs);
    this.soon.unref();
  }

  /** One look at every running rollout; a look asked for while one runs follows it. */
  look(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.failSilent();
          for (const rollout of await this.step(() => this.repo.runningRollouts(this.db))) await this.advance(rollout);
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Device reports handled so far (tests wait on it). */
  settled(): Promise<void> {
    this.takeInbox();
    return this.reports;
  }

  /**
   * Handles the statuses received since the last batch in one paced step. A download's progress
   * reports that a later report of the same upgrade supersedes are dropped: with a hundred
   * devices downloading, what is written is each one's latest, not every ten per cent.
   */
  private takeInbox(): void {
    clearTimeout(this.inboxTimer);
    this.inboxTimer = undefined;
    const batch = this.inbox.splice(0);
    if (!batch.length) return;
    // Walked from the newest: a download's progress report is kept only if nothing later of
    // the same upgrade came in the batch.
    const reported = new Set<number>();
    const kept = batch
      .reverse()
      .filter((item) => {
        const id = item.status.ota?.id;
        if (id === undefined) return true;
        const superseded = item.status.ota?.state === 'downloading' && reported.has(id);
        reported.add(id);
        return !superseded;
      })
      .reverse();
    this.queueReport(() =>
      this.step(async () => {
        // Every device reports its version when it connects: one query finds the few upgrading.
        const withVersion = [...new Set(kept.flatMap((item) => (item.status.fw ? [item.deviceRowId] : [])))];
        const upgrading = new Set(await this.repo.devicesUpgrading(this.db, withVersion));
        for (const item of kept) await this.onStatus(item.deviceRowId, item.status, upgrading.has(item.deviceRowId));
      }),
    );
  }

  private queueReport(work: () => Promise<void>): void {
    this.reports = this.reports.then(work).catch(this.onError);
  }

  private async failSilent(): Promise<void> {
    const now = this.clock.now();
    const silent = await this.step(() => this.repo.timedOut(this.db, new Date(now.getTime() - this.options.timeoutMs)));
    for (const upgrade of silent) {
      await this.step(() =>
        this.repo.moveUpgrade(this.db, upgrade.id, IN_FLIGHT, {
          state: 'failed',
          reason: 'timeout',
          error: 'timeout: the device stopped reporting the upgrade',
          updatedAt: now,
          finishedAt: now,
        }),
      );
    }
  }

  private async advance(rollout: RolloutRecord): Promise<void> {
    const [pkg] = await this.step(() =>
      this.db.select().from(firmwarePackages).where(eq(firmwarePackages.id, rollout.packageId)),
    );
    if (!pkg) return;
    const counts = () => this.step(() => this.repo.stageCounts(this.db, [rollout.packageId]));
    let figures = rolloutCounts(rollout.stages, await counts());
    if (nextStep(rollout.stage, figures.stageCounts, figures.counts, rollout.failureThreshold, 0).kind === 'pause') {
      await this.pause(rollout);
      return;
    }
    const room = Math.max(0, MAX_IN_FLIGHT - figures.counts.inProgress);
    let sent = 0;
    if (room > 0) {
      const waiting = await this.step(() =>
        this.repo.dispatchable(this.db, rollout.packageId, rollout.stage, room * 4),
      );
      const online = waiting.filter((u) => u.online);
      const occupied = rollout.forceOccupied ? new Set<number>() : await this.occupiedAmong(online);
      for (const upgrade of online) {
        if (sent >= room) break;
        if (occupied.has(upgrade.deviceRowId)) {
          if (upgrade.state === 'pending') {
            await this.step(() =>
              this.repo.moveUpgrade(this.db, upgrade.id, ['pending'], {
                state: 'deferred',
                updatedAt: this.clock.now(),
              }),
            );
          }
          continue;
        }
        if (await this.step(() => this.send(upgrade, pkg))) sent++;
      }
    }
    if (sent > 0) return;
    figures = rolloutCounts(rollout.stages, await counts());
    const step = nextStep(rollout.stage, figures.stageCounts, figures.counts, rollout.failureThreshold, 0);
    const now = this.clock.now();
    if (step.kind === 'pause') await this.pause(rollout);
    else if (step.kind === 'advance') {
      await this.step(() =>
        this.repo.moveRollout(this.db, rollout.packageId, ['running'], { stage: step.to, updatedAt: now }),
      );
      this.again = true;
    } else if (step.kind === 'done') {
      await this.step(() =>
        this.repo.moveRollout(this.db, rollout.packageId, ['running'], { state: 'done', updatedAt: now }),
      );
    }
  }

  private pause(rollout: RolloutRecord): Promise<boolean> {
    return this.step(() =>
      this.repo.moveRollout(this.db, rollout.packageId, ['running'], {
        state: 'paused',
        pausedReason: 'failures',
        updatedAt: this.clock.now(),
      }),
    );
  }

  /** Queues the `ota` command and marks the upgrade sent, in one transaction; false when another look took it. */
  private async send(
    upgrade: { id: number; deviceRowId: number; deviceId: string; providerId: number },
    pkg: typeof firmwarePackages.$inferSelect,
  ): Promise<boolean> {
    const now = this.clock.now();
    const token = randomBytes(24).toString('base64url');
    const expires = new Date(now.getTime() + this.options.linkMs);
    // The command first, then the upgrade moved with its id in one statement: updating the
    // upgrade row twice in the transaction deadlocks against a stop cancelling the rollout's
    // waiting upgrades (PostgreSQL's tuple lock: the stop waits on the row, then holds it).
    const sent = await this.db
      .transaction(async (tx) => {
        const commandId = await this.commands.queueBySystem(
          tx,
          { id: upgrade.deviceRowId, deviceId: upgrade.deviceId, providerId: upgrade.providerId },
          'ota',
          {
            version: pkg.version,
            url: `${DOWNLOAD_PATH}?token=${token}`,
            size: pkg.sizeBytes,
            md5: pkg.md5,
            sha256: pkg.sha256,
            expires: Math.floor(expires.getTime() / 1000),
          },
          now,
        );
        const moved = await this.repo.moveUpgrade(tx, upgrade.id, WAITING, {
          state: 'sent',
          progress: 0,
          reason: null,
          error: null,
          commandId,
          downloadToken: token,
          linkExpiresAt: expires,
          sentAt: now,
          updatedAt: now,
        });
        // Taken or cancelled meanwhile: the command goes back with the transaction.
        if (!moved) throw NOT_TAKEN;
        return true;
      })
      .catch((error: unknown) => {
        if (error === NOT_TAKEN) return false;
        throw error;
      });
    if (sent) this.commands.announce(upgrade.deviceId);
    return sent;
  }

  /**
   * Of the given devices, those whose bed is occupied in its sleep window: a resident is in the
   * bed the device watches, now is between their sleep and wake time, and the device's latest
   * vitals (under 2 minutes old) do not say the bed is empty. Upgrading one would leave the
   * resident unwatched. Two queries for all of them.
   */
  async occupiedAmong(devices: readonly { deviceRowId: number; deviceId: string }[]): Promise<Set<number>> {
    const out = new Set<number>();
    if (!devices.length) return out;
    const rows = await this.step(() =>
      this.db
        .select({ deviceRowId: beds.deviceId, residentId: beds.residentId })
        .from(beds)
        .where(
          and(
            inArray(
              beds.deviceId,
              devices.map((d) => d.deviceRowId),
            ),
            isNotNull(beds.residentId),
          ),
        ),
    );
    const residentOf = new Map(
      rows.flatMap((r) => (r.deviceRowId && r.residentId ? [[r.deviceRowId, r.residentId]] : [])),
    );
    if (!residentOf.size) return out;
    const saved = await this.step(() => this.sleepSettings.savedOfMany([...residentOf.values()]));
    const settingOf = new Map(saved.map((row) => [row.residentId, row]));
    const now = this.clock.now();
    const minute = this.minuteOfDay(now);
    for (const device of devices) {
      const residentId = residentOf.get(device.deviceRowId);
      if (residentId === undefined) continue;
      const setting = effectiveSleepSetting(residentId, settingOf.get(residentId));
      if (!inWindow(minute, setting.sleepTime, setting.wakeTime)) continue;
      const vitals = this.feed.latestVitals(device.deviceId);
      const fresh = vitals && now.getTime() - vitals.receivedAt.getTime() < FRESH_VITALS_MS;
      if (!fresh || vitals.telemetry.inBed) out.add(device.deviceRowId);
    }
    return out;
  }

  /** What a device's status says of its upgrades: progress, a failure, or the version it now runs. */
  private async onStatus(deviceRowId: number, status: DeviceStatus, upgrading: boolean): Promise<void> {
    const now = this.clock.now();
    if (status.ota) {
      const upgrade = await this.repo.upgradeByCommand(this.db, status.ota.id);
      if (upgrade && upgrade.deviceRowId === deviceRowId) {
        const ota = status.ota;
        if (ota.state === 'failed') {
          await this.repo.moveUpgrade(this.db, upgrade.id, IN_FLIGHT, {
            state: 'failed',
            reason: 'failedOnDevice',
            error: ota.error?.trim() || null,
            updatedAt: now,
            finishedAt: now,
          });
          this.poke(REPORT_LOOK_DELAY_MS);
        } else {
          await this.repo.moveUpgrade(this.db, upgrade.id, IN_FLIGHT, {
            state: ota.state === 'installing' ? 'installing' : 'downloading',
            progress: ota.state === 'downloading' ? (ota.progress ?? upgrade.progress) : 100,
            updatedAt: now,
          });
        }
      }
    }
    if (status.fw && upgrading) {
      const reported = parseFirmwareVersion(status.fw);
      for (const upgrade of await this.repo.inFlightOf(this.db, deviceRowId)) {
        const target = parseFirmwareVersion(upgrade.version);
        if (reported && target && compareFirmwareVersions(reported, target) === 0) {
          await this.repo.moveUpgrade(this.db, upgrade.id, IN_FLIGHT, {
            state: 'succeeded',
            progress: 100,
            updatedAt: now,
            finishedAt: now,
          });
          this.poke(REPORT_LOOK_DELAY_MS);
        } else if (upgrade.state === 'installing' && !status.ota) {
          // Back from the restart on another version: the installation did not take.
          await this.repo.moveUpgrade(this.db, upgrade.id, ['installing'], {
            state: 'failed',
            reason: 'otherVersion',
            error: `restarted on version ${status.fw}`,
            updatedAt: now,
            finishedAt: now,
          });
          this.poke(REPORT_LOOK_DELAY_MS);
        }
      }
    }
    if (status.online) this.poke(REPORT_LOOK_DELAY_MS);
  }

  private async onRefused(answer: CommandAnswer): Promise<void> {
    const upgrade = await this.repo.upgradeByCommand(this.db, answer.commandId);
    if (!upgrade) return;
    const now = this.clock.now();
    await this.repo.moveUpgrade(this.db, upgrade.id, IN_FLIGHT, {
      state: 'failed',
      reason: 'refused',
      error: answer.error ?? null,
      updatedAt: now,
      finishedAt: now,
    });
    this.poke(REPORT_LOOK_DELAY_MS);
  }
}

/** Whether a minute of the day falls in a window of "HH:mm" times that may cross midnight. */
export const inWindow = (minute: number, start: string, end: string): boolean => {
  const toMinute = (hhmm: string) => {
    const [h = '0', m = '0'] = hhmm.split(':');
    return Number(h) * 60 + Number(m);
  };
  const from = toMinute(start);
  const to = toMinute(end);
  return from <= to ? minute >= from && minute < to : minute >= from || minute < to;
};
