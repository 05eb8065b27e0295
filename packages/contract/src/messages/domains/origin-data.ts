import { defineMessages } from '../define.ts';

/** The original (raw) data of devices: list, CSV download and deletion per device and day. */
export const originDataMessages = defineMessages(
  {
    'originData.dayFormat': '{field} must be a day written YYYY-MM-DD, for example 2026-03-01.',
    'field.day': 'Day',
  },
  {
    'originData.dayFormat': '{field}必须是 YYYY-MM-DD 格式的日期，例如 2026-03-01。',
    'field.day': '日期',
  },
);
