import { callerOf, type CallContext } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import { templateLanguage } from '../spreadsheet/template-language.ts';
import type { CaregiverSheetService, SheetActor } from './caregiver-sheet.service.ts';

const actorOf = (ctx: CallContext): SheetActor => ({ caller: callerOf(ctx), ip: ctx.ip, lang: ctx.lang });

export const caregiverSheetHandlers = (
  sheets: CaregiverSheetService,
): Pick<Handlers, 'nursingExcelModel' | 'nursingBatchAdd' | 'nursingExportData'> => ({
  nursingExcelModel: async (input, ctx) => sheets.template(templateLanguage(input, ctx)),
  nursingBatchAdd: (input, ctx) => sheets.import(actorOf(ctx), input.file, input.providerId),
  nursingExportData: (input, ctx) => sheets.export(actorOf(ctx), input),
});
