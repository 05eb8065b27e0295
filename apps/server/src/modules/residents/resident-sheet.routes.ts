import { callerOf, type CallContext } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import { templateLanguage } from '../spreadsheet/template-language.ts';
import type { ResidentSheetService } from './resident-sheet.service.ts';

const actorOf = (ctx: CallContext) => ({ caller: callerOf(ctx), ip: ctx.ip, lang: ctx.lang });

export const residentSheetHandlers = (
  sheets: ResidentSheetService,
): Pick<Handlers, 'residentExcelModel' | 'residentBatchAdd' | 'residentExportData'> => ({
  residentExcelModel: async (input, ctx) => sheets.template(templateLanguage(input, ctx)),
  residentBatchAdd: (input, ctx) => sheets.import(actorOf(ctx), input),
  residentExportData: (input, ctx) => sheets.export(actorOf(ctx), input),
});
