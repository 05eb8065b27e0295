import type { AlarmRecord, alarmLog, AlarmType, EndpointRequest } from '@vigil/contract/browser';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { DATE_TIME_FORMAT } from '../../shared/ui/datetime.ts';

/** The two lists of the alarm log: still open, and released (handled or cleared). */
export type AlarmTab = 'pending' | 'resolved';

/** How far back the lists reach: the last 24 hours, week, month (the default) or three months. */
export const PERIODS = ['day', 'week', 'month', 'quarter'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = 'month';

const DAY = 86_400;
export const PERIOD_SECONDS: Readonly<Record<Period, number>> = {
  day: DAY,
  week: 7 * DAY,
  month: 30 * DAY,
  quarter: 90 * DAY,
};

/** What the filter bar chooses; shared by both tabs. */
export interface AlarmFilters {
  period: Period;
  keyWord?: string;
  alertType?: AlarmType;
  alertLevel?: 1 | 2;
  /** Raised in this room, or in this floor or area (decision 0046). */
  roomId?: number;
  areaId?: number;
}

export interface AlarmSort {
  orderBy: 'timeStamp' | 'alertLevel';
  order: 'asc' | 'desc';
}
/** Newest first. */
export const DEFAULT_SORT: AlarmSort = { orderBy: 'timeStamp', order: 'desc' };

type ListRequest = EndpointRequest<typeof alarmLog>;

/** Now, in the server's Unix seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * The list calls' filters: the period counted back from now (start only, so an alarm raised
 * after the request is never cut off), and the chosen key word, type and level.
 */
export const listFilters = (filters: AlarmFilters, now = nowSeconds()): Omit<ListRequest, 'pageNum' | 'pageSize'> => {
  const { period, ...chosen } = filters;
  return { startTime: now - PERIOD_SECONDS[period], ...chosen };
};

/** A server instant in Unix seconds, as the console writes a moment (local date and time). */
export const formatSeconds = (seconds: number | null | undefined, empty = ''): string =>
  seconds === null || seconds === undefined ? empty : dayjs.unix(seconds).format(DATE_TIME_FORMAT);

/** A timeline step's moment: to the second, as several steps often share a minute. */
export const formatStepTime = (seconds: number): string => dayjs.unix(seconds).format(`${DATE_TIME_FORMAT}:ss`);

/** Where the alarm was raised: "Area / Floor / Room / Bed", or null when the server names no place. */
export const placeOf = (row: Pick<AlarmRecord, 'floorArea' | 'room' | 'bunk'>): string | null => {
  const parts = [row.floorArea, row.room, row.bunk].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join(' / ') : null;
};

/**
 * The level tag: level 1 red (danger), anything else level 2 orange (warning), named as every
 * screen names the levels (the shell's alarmLevel.N: 一级 / 二级, Level 1 / Level 2 …).
 */
export const levelTag = (level: number, t: TFunction): { color: 'red' | 'orange'; text: string } =>
  level === 1
    ? { color: 'red', text: t('alarmLevel.1', { ns: 'translation' }) }
    : { color: 'orange', text: t('alarmLevel.2', { ns: 'translation' }) };
