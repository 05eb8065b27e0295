/** Live monitoring's limits and filters, without zod, for the console (the calls are in calls/monitor.ts). */

export const MONITOR_LIMITS = {
  /** Focus residents one account keeps (the cards of /realMonitor/index). */
  maxFocus: 60,
  /** Residents one socket (or one session) follows live at once. */
  maxSubscribed: 200,
  /** Rows of one /monitor/userList page. */
  maxPageSize: 200,
} as const;

/** Filters of the resident list by live state. */
export const LIVE_STATES = ['inBed', 'outOfBed', 'offline', 'alarm', 'noDevice'] as const;
export type LiveStateFilter = (typeof LIVE_STATES)[number];
