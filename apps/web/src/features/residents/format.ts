import { DATE_TIME_FORMAT, formatDateTime } from '../../shared/ui/datetime.ts';

/** A server instant in the browser's time, to the minute; empty when there is none. */
export const formatTime = (iso: string | null | undefined): string => formatDateTime(iso);

export { DATE_TIME_FORMAT as TIME_FORMAT };
