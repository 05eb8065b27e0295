import dayjs from 'dayjs';

/** The one way the console writes a moment: the browser's local date and time, to the minute. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** A server instant (ISO 8601, UTC) in the browser's time zone; `empty` when there is none or it is unreadable. */
export const formatDateTime = (iso: string | null | undefined, empty = ''): string => {
  if (!iso) return empty;
  const moment = dayjs(iso);
  return moment.isValid() ? moment.format(DATE_TIME_FORMAT) : empty;
};
