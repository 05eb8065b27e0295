import { translate, type AlarmRecord, type BinaryBody, type Language } from '@vigil/contract';
import { writeWorkbook } from '../spreadsheet/sheet-writer.ts';

/** "2026-11-26 22:15:03" in the beds' time zone: what a care home reads in its log. */
export const localTimeFormat = (timeZone: string) => {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (seconds: number) => format.format(new Date(seconds * 1000));
};

/** Which tab of the alarm log an export holds. */
export type AlarmSheetList = 'pending' | 'processed';

/**
 * One tab of the alarm log as .xlsx (the sheet conventions of the other exports: one header row,
 * formula-safe text, columns as wide as their content). The sheet and the file are named after the
 * tab, the file with the day of the export too: "Pending alarms 2026-11-26.xlsx".
 */
export const alarmSheet = (
  records: readonly AlarmRecord[],
  lang: Language,
  time: (seconds: number) => string,
  list: AlarmSheetList,
  exportedAt: number,
): BinaryBody => {
  const t = (key: Parameters<typeof translate>[1]) => translate(lang, key);
  const name = t(list === 'pending' ? 'sheet.name.alarmsPending' : 'sheet.name.alarmsResolved');
  const day = time(exportedAt).slice(0, 10);
  return writeWorkbook(
    {
      sheetName: name,
      header: [
        t('sheet.col.alarmTime'),
        t('sheet.col.alarmType'),
        t('sheet.col.alarmLevel'),
        t('sheet.col.alarmText'),
        t('sheet.col.measure'),
        t('sheet.col.area'),
        t('sheet.col.room'),
        t('sheet.col.bed'),
        t('sheet.col.resident'),
        t('sheet.col.deviceId'),
        t('sheet.col.alarmCount'),
        t('sheet.col.alarmState'),
        t('sheet.col.dealTime'),
        t('sheet.col.handler'),
        t('sheet.col.reason'),
        t('sheet.col.result'),
        t('sheet.col.details'),
      ],
      rows: records.map((r) => [
        time(r.timeStamp),
        t(`alarmType.${r.alertType}`),
        t(`alarmLevel.${r.alertLevel}`),
        r.text,
        r.measureText,
        r.floorArea,
        r.room,
        r.bunk,
        r.userName,
        r.deviceId,
        r.count,
        t(`releaseKind.${r.releaseKind}`),
        r.dealTime === null ? null : time(r.dealTime),
        r.handlerName,
        r.relieveReason && t(`relieve.${r.relieveReason}`),
        r.dealResult && t(`dealResult.${r.dealResult}`),
        r.remark,
      ]),
    },
    `${name} ${day}.xlsx`,
  );
};
