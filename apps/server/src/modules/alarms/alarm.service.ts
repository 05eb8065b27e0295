import {
  dealResultsFor,
  DEFAULT_VOICE_WAY,
  translate,
  type AlarmLevel,
  type AlarmRecord,
  type AlarmTimelineStep,
  type AlarmType,
  type BinaryBody,
  type CallParsed,
  type Calls,
  type Language,
  type VoiceWay,
  type WsLogType,
} from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { fail, invalid } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { listScope, scopeIds } from '../../core/tenant.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { assertExportable, EXPORT_PAGE } from '../spreadsheet/export-limit.ts';
import { alarmSheet, localTimeFormat } from './alarm-sheet.ts';
import { AlarmQueryRepository, type AlarmListQuery, type AlarmView } from './alarm-query.repository.ts';

/** An alarm as the screens and notifications show it (the consoles' socket presents it). */
export type { AlarmView };
import { alarmRecord } from './alarm-record.ts';
import { ALARM_EVENT } from '../../core/event-catalogue.ts';
import { alarmPayload } from './alarm-runner.ts';
import type { AlarmRepository } from './alarm.repository.ts';
import { personName, personNames } from './alarm-people.ts';

/** The nurse watch a release was made at (its device ID), if it was. */
const watchOf = (detail: Readonly<Record<string, unknown>>): string | null =>
  typeof detail.watchId === 'string' ? detail.watchId : null;

type ListInput = CallParsed<Calls['alarmLogUnDeal']>;
type RelieveInput = CallParsed<Calls['alarmRelieve']>;
type ExportInput = CallParsed<Calls['alarmExport']>;
type NoteInput = CallParsed<Calls['alarmAddNote']>;

/** What a console reports of an alarm on its socket (/wsLog): shown, released there, or played. */
export interface ConsoleLog {
  alarmId: number;
  at: Date;
  console: WsLogType;
}

/** Kept for finding a console's earlier report; no reader needs it. */
const INTERNAL_DETAIL = ['session'];
const shownDetail = (detail: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(detail).filter(([key]) => !INTERNAL_DETAIL.includes(key)));

/**
 * The alarm calls: the pending and processed lists, one alarm's state and timeline, the bell,
 * the export, and handling — one conditional update, so of any number of terminals handling
 * one alarm exactly one wins.
 */
export class AlarmService {
  private readonly query = new AlarmQueryRepository();
  private readonly localTime: (seconds: number) => string;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    private readonly repo: AlarmRepository,
    private readonly audit: AuditService,
    timeZone: string,
    private readonly voiceWayOf: (providerId: number | null, level: AlarmLevel) => VoiceWay = (_p, level) =>
      DEFAULT_VOICE_WAY[level],
  ) {
    this.localTime = localTimeFormat(timeZone);
  }

  async list(caller: Caller, q: ListInput, open: boolean, lang: Language) {
    const { rows, total } = await this.query.page(this.db, this.listQuery(caller, q, open));
    return { rows: rows.map((v) => this.record(v, lang)), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async one(caller: Caller, id: number, lang: Language): Promise<AlarmRecord> {
    return this.record(await this.visible(caller, id), lang);
  }

  async alertFlag(caller: Caller): Promise<{ flag: boolean; count: number }> {
    const n = await this.query.openCount(this.db, scopeIds(listScope(caller)));
    return { flag: n > 0, count: n };
  }

  async relieve(caller: Caller, input: RelieveInput, lang: Language, ip?: string): Promise<AlarmRecord> {
    const view = await this.visible(caller, input.id);
    this.assertResultFits(view, input.result, lang);
    const now = this.clock.now();
    const handled = await this.transactions.run(async (tx, emit) => {
      const row = await this.repo.handle(tx, input.id, {
        at: now,
        reason: input.reason,
        result: input.result ?? null,
        remark: input.details || null,
        accountId: caller.accountId,
        // The person, never the provider's name its own login account carries (issue 29).
        handlerName: personName(caller),
      });
      // Another terminal's update committed first: this one changed nothing.
      if (!row) return undefined;
      await this.repo.addTimeline(tx, [
        {
          alarmId: row.id,
          at: now,
          step: 'handled',
          accountId: caller.accountId,
          detail: { reason: input.reason, result: input.result ?? null },
        },
      ]);
      await this.audit.by(
        { kind: 'account', caller, ip: ip ?? '' },
        'alarm.relieve',
        {
          type: 'alarm',
          id: row.id,
          providerId: row.providerId,
          detail: { reason: input.reason, result: input.result },
        },
        tx,
      );
      emit({ type: ALARM_EVENT.handled, providerId: row.providerId, payload: { alarm: alarmPayload(row) } });
      return row;
    });
    if (!handled) throw fail('alarm.handledElsewhere');
    return this.record({ ...view, alarm: handled }, lang);
  }

  async timeline(caller: Caller, id: number): Promise<AlarmTimelineStep[]> {
    await this.visible(caller, id);
    const entries = await this.repo.timeline(this.db, id);
    const names = await personNames(
      this.db,
      entries.flatMap((e) => (e.accountId === null ? [] : [e.accountId])),
    );
    return entries.map((e) => ({
      at: e.at.getTime() / 1000,
      step: e.step as AlarmTimelineStep['step'],
      // A caregiver at her nurse watch is known by the watch.
      who: e.accountId !== null ? (names.get(e.accountId) ?? null) : watchOf(e.detail),
      detail: shownDetail(e.detail),
    }));
  }

  /**
   * Adds a person's note to an alarm's timeline, pending or handled: what a caregiver typed while
   * another terminal handled the alarm is kept. Every console that sees the alarm hears of it.
   */
  async addNote(caller: Caller, input: NoteInput, ip?: string): Promise<AlarmTimelineStep> {
    const view = await this.visible(caller, input.id);
    const at = this.clock.now();
    const who = personName(caller);
    await this.transactions.run(async (tx, emit) => {
      await this.repo.addTimeline(tx, [
        { alarmId: input.id, at, step: 'note', accountId: caller.accountId, detail: { note: input.note } },
      ]);
      await this.audit.by(
        { kind: 'account', caller, ip: ip ?? '' },
        'alarm.note',
        { type: 'alarm', id: input.id, providerId: view.alarm.providerId, detail: { note: input.note } },
        tx,
      );
      emit({
        type: ALARM_EVENT.noted,
        providerId: view.alarm.providerId,
        payload: { note: { id: input.id, at: at.getTime() / 1000, who, note: input.note } },
      });
    });
    return { at: at.getTime() / 1000, step: 'note', who, detail: { note: input.note } };
  }

  async export(caller: Caller, q: ExportInput, lang: Language): Promise<BinaryBody> {
    const { rows, total } = await this.query.page(
      this.db,
      this.listQuery(caller, { ...q, ...EXPORT_PAGE }, q.deal === 'pending'),
    );
    assertExportable(total);
    return alarmSheet(
      rows.map((v) => this.record(v, lang)),
      lang,
      this.localTime,
      q.deal,
      Math.floor(this.clock.now().getTime() / 1000),
    );
  }

  /**
   * What a console reports of an alarm (/wsLog), kept on its timeline if the account sees the
   * alarm, once per console (its session): a reload or a reconnect reporting again adds nothing.
   */
  async recordConsoleLog(caller: Caller, log: ConsoleLog): Promise<void> {
    const alarm = await this.repo.byId(this.db, log.alarmId);
    if (!alarm || !canSeeProvider(caller.scope, alarm.providerId)) return;
    await this.repo.addConsoleLog(this.db, {
      alarmId: log.alarmId,
      at: log.at,
      step: log.console === 'playAlarm' ? 'played' : 'delivered',
      accountId: caller.accountId,
      console: log.console,
      session: caller.sessionId,
    });
  }

  /** A resident's alarms raised since an instant (the resident page's "today"), newest first, as the caller may see them. */
  async ofResidentSince(caller: Caller, residentId: number, since: Date, lang: Language): Promise<AlarmRecord[]> {
    const views = await this.query.ofResidentSince(this.db, residentId, since, scopeIds(caller.scope));
    return views.map((v) => this.record(v, lang));
  }

  /** An alarm with the names of where it was raised (for the live socket's frames). */
  view(id: number): Promise<AlarmView | undefined> {
    return this.query.byId(this.db, id);
  }

  /** An alarm as the console reads it, in a language. */
  record(view: AlarmView, lang: Language): AlarmRecord {
    return alarmRecord(view, lang, (level) => this.voiceWayOf(view.alarm.providerId, level), this.clock.now());
  }

  /**
   * A handling result must fit the alarm's type (decision 0036): the fall radar's postures for a
   * fall, not for a heart rate. The refusal names the result, the type and what fits, in words.
   */
  private assertResultFits(view: AlarmView, result: RelieveInput['result'], lang: Language): void {
    const type = view.alarm.alertType as AlarmType;
    const fits = dealResultsFor(type);
    if (result === undefined || fits.includes(result)) return;
    throw invalid('alarm.resultNotForType', {
      result: translate(lang, `dealResult.${result}`),
      type: translate(lang, `alarmType.${type}`),
      options: new Intl.ListFormat(lang, { type: 'disjunction' }).format(
        fits.map((r) => translate(lang, `dealResult.${r}`)),
      ),
    }).on('result');
  }

  /** An alarm the caller may see; otherwise it does not exist for them. */
  private async visible(caller: Caller, id: number): Promise<AlarmView> {
    const view = await this.query.byId(this.db, id);
    if (!view || !canSeeProvider(caller.scope, view.alarm.providerId)) throw fail('alarm.notFound');
    return view;
  }

  private listQuery(
    caller: Caller,
    q: Omit<ListInput, 'pageNum' | 'pageSize'> & { pageNum: number; pageSize: number },
    open: boolean,
  ): AlarmListQuery {
    return {
      providerIds: scopeIds(listScope(caller)),
      open,
      from: q.startTime === undefined ? undefined : new Date(q.startTime * 1000),
      to: q.endTime === undefined ? undefined : new Date(q.endTime * 1000),
      keyWord: q.keyWord || undefined,
      place: { roomId: q.roomId, areaId: q.areaId },
      alertType: q.alertType as AlarmType | undefined,
      level: q.alertLevel,
      orderBy: q.orderBy,
      order: q.order,
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
    };
  }
}
