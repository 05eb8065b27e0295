import { callerOf, type CallContext } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import { templateLanguage } from '../spreadsheet/template-language.ts';
import type { DeviceSheetService, SheetActor } from './device-sheet.service.ts';

type DeviceSheetCalls =
  | 'deviceExcelModel'
  | 'deviceBatchAdd'
  | 'deviceExportData'
  | 'gatewayExcelModel'
  | 'heHostBatchAdd'
  | 'heInfraredBatchAdd'
  | 'deviceStockExcelModel'
  | 'deviceStockImportSheet';

const actorOf = (ctx: CallContext): SheetActor => ({ caller: callerOf(ctx), ip: ctx.ip, lang: ctx.lang });

export const deviceSheetHandlers = (sheets: DeviceSheetService): Pick<Handlers, DeviceSheetCalls> => ({
  deviceExcelModel: async (input, ctx) => sheets.template('device', templateLanguage(input, ctx)),
  deviceBatchAdd: async (input, ctx) => ({
    imported: await sheets.addDevices(actorOf(ctx), input.file, input.providerId),
  }),
  deviceExportData: (input, ctx) => sheets.exportDevices(actorOf(ctx), input),
  gatewayExcelModel: async (input, ctx) => sheets.template(input.kind, templateLanguage(input, ctx)),
  heHostBatchAdd: async (input, ctx) => ({
    imported: await sheets.addHosts(actorOf(ctx), input.file, input.providerId),
  }),
  heInfraredBatchAdd: async (input, ctx) => ({ imported: await sheets.addInfrared(actorOf(ctx), input.file) }),
  deviceStockExcelModel: async (input, ctx) => sheets.template('stock', templateLanguage(input, ctx)),
  deviceStockImportSheet: async (input, ctx) => ({ imported: await sheets.addToRegistry(actorOf(ctx), input.file) }),
});
