import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import { templateLanguage } from '../spreadsheet/template-language.ts';
import type { BedSheetService } from './bed-sheet.service.ts';

export const bedSheetHandlers = (
  sheets: BedSheetService,
): Pick<Handlers, 'bunkExcelModel' | 'bunkImportData' | 'bunkExportData'> => ({
  bunkExcelModel: async (input, ctx) => sheets.template(templateLanguage(input, ctx)),
  async bunkImportData(input, ctx) {
    const actor = { caller: callerOf(ctx), ip: ctx.ip, lang: ctx.lang };
    return { imported: await sheets.import(actor, input.file, input.providerId) };
  },
  bunkExportData: (input, ctx) => sheets.export({ caller: callerOf(ctx), ip: ctx.ip, lang: ctx.lang }, input),
});
