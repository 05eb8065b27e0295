import {
  CAREGIVER_LEVELS,
  insertNursing,
  translate,
  type BinaryBody,
  type Language,
  type UploadedFile,
} from '@vigil/contract';
import type { Db } from '../../db/database.ts';
import type { Caller } from '../../core/caller.ts';
import { oneOf, text } from '../spreadsheet/cells.ts';
import { assertExportable, EXPORT_PAGE } from '../spreadsheet/export-limit.ts';
import {
  defineSheet,
  readSheet,
  refuseOnProblems,
  sheetExport,
  sheetTemplate,
  presentValues,
  rowsWithoutProblems,
  validateRows,
  type DomainProblem,
} from '../spreadsheet/sheet-import.ts';
import type { CaregiverService } from './caregiver.service.ts';

const LEVELS = CAREGIVER_LEVELS.map((l) => ({ value: l, label: `sheet.level.${l}` as const }));

export const CAREGIVER_SHEET = defineSheet({
  name: 'sheet.name.caregivers',
  columns: {
    name: { header: 'sheet.col.name', required: true, parse: text(64) },
    phone: { header: 'sheet.col.phone', required: true, parse: text(32) },
    job: { header: 'sheet.col.job', required: false, parse: text(64) },
    level: { header: 'sheet.col.level', required: false, parse: oneOf(LEVELS) },
    userName: { header: 'sheet.col.appAccount', required: false, parse: text(64) },
    remark: { header: 'sheet.col.remark', required: false, parse: text(200) },
  },
  sheetNotes: ['sheet.note.passwords'],
  notes: {
    phone: { key: 'sheet.note.phone' },
    level: {
      key: 'sheet.note.oneOf',
      params: (lang: Language) => ({ options: LEVELS.map((l) => translate(lang, l.label)).join(', ') }),
    },
    userName: { key: 'sheet.note.appAccount' },
  },
});

export interface SheetActor {
  caller: Caller;
  ip: string;
  lang: Language;
}

/** Caregiver spreadsheets (nurse-manage): template, import (with app accounts) and export. */
export class CaregiverSheetService {
  constructor(
    private readonly db: Db,
    private readonly caregivers: CaregiverService,
  ) {}

  template(lang: Language): BinaryBody {
    return sheetTemplate(CAREGIVER_SHEET, lang, 'caregivers-template.xlsx');
  }

  /**
   * Creates every caregiver with its app account, or none; the generated passwords come back once,
   * in row order, for the manager to hand over.
   */
  async import(actor: SheetActor, file: UploadedFile | undefined, providerId: number | undefined) {
    const content = await readSheet(file, CAREGIVER_SHEET, actor.lang);
    const { records } = content;
    const validated = validateRows(
      insertNursing.request,
      records.map((r) => presentValues(r.values)),
    );
    const problems: DomainProblem[] = [...validated.problems];
    return this.db.transaction(async (tx) => {
      const { indexes: good, rows } = rowsWithoutProblems(validated.parsed, problems);
      const outcome = await this.caregivers.createMany(actor.caller, rows, tx, actor.ip, providerId);
      if (!outcome.ok) {
        for (const p of outcome.problems) {
          const index = good[p.index] ?? p.index;
          // A repeated phone names the earlier row by its batch position: word it as the spreadsheet row.
          const params =
            p.key === 'import.cell.duplicate'
              ? { other: records[good[Number(p.params.other)] ?? -1]?.row ?? p.params.other ?? '' }
              : p.params;
          problems.push({ index, field: p.field, key: p.key, params });
        }
      }
      refuseOnProblems(CAREGIVER_SHEET, actor.lang, content, problems);
      if (!outcome.ok) throw new Error('unreachable: refused above');
      return {
        imported: outcome.created.length,
        accounts: outcome.created.map((c, i) => ({
          name: rows[i]?.name ?? '',
          userName: c.userName,
          initialPassword: c.initialPassword,
        })),
      };
    });
  }

  async export(
    actor: SheetActor,
    query: Omit<Parameters<CaregiverService['list']>[1], 'pageNum' | 'pageSize'>,
  ): Promise<BinaryBody> {
    const { rows, total } = await this.caregivers.list(actor.caller, { ...query, ...EXPORT_PAGE });
    assertExportable(total);
    const t = (key: Parameters<typeof translate>[1]) => translate(actor.lang, key);
    return sheetExport(
      CAREGIVER_SHEET,
      actor.lang,
      'caregivers.xlsx',
      rows,
      (c) => [c.name, c.phone, c.job, t(`sheet.level.${c.level}`), c.userName, c.remark],
      [
        { header: 'sheet.col.enabled', value: (c) => t(c.enabled ? 'sheet.yes' : 'sheet.no') },
        { header: 'sheet.col.residentCount', value: (c) => c.residents.length },
        { header: 'sheet.col.provider', value: (c) => c.providerName },
      ],
    );
  }
}
