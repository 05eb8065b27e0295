import dayjs from 'dayjs';

const TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** A server instant (ISO 8601) in the browser's time, to the minute; empty when there is none. */
export const formatTime = (iso: string | null | undefined): string => (iso ? dayjs(iso).format(TIME_FORMAT) : '');

export { TIME_FORMAT };
