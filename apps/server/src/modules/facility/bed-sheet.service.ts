import {
  MATTRESSES,
  PLACE_NAME_MAX,
  translate,
  type BinaryBody,
  type Bunk,
  type Language,
  type UploadedFile,
} from '@vigil/contract';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { AppError } from '../../core/app-error.ts';
import { targetProvider } from '../../core/tenant.ts';
import { oneOf, text } from '../spreadsheet/cells.ts';
import { assertExportable, EXPORT_PAGE } from '../spreadsheet/export-limit.ts';
import {
  readSheet,
  refuseOnProblems,
  sheetExport,
  sheetTemplate,
  defineSheet,
  type DomainProblem,
} from '../spreadsheet/sheet-import.ts';
import type { BedListQuery, FacilityViewService } from './facility-view.service.ts';
import type { Actor, OccupancyService } from './occupancy.service.ts';
import type { PlaceService } from './place.service.ts';

const MATTRESS_OPTIONS = MATTRESSES.map((m) => ({ value: m, label: `sheet.mattress.${m}` as const }));
const mattressLabels = (lang: Language) => ({
  options: MATTRESS_OPTIONS.map((o) => translate(lang, o.label)).join(', '),
});

export const BED_SHEET = defineSheet({
  name: 'sheet.name.beds',
  columns: {
    area: { header: 'sheet.col.area', required: true, parse: text(PLACE_NAME_MAX) },
    floor: { header: 'sheet.col.floor', required: true, parse: text(PLACE_NAME_MAX) },
    room: { header: 'sheet.col.room', required: true, parse: text(PLACE_NAME_MAX) },
    bed: { header: 'sheet.col.bed', required: true, parse: text(PLACE_NAME_MAX) },
    mattress: { header: 'sheet.col.mattress', required: false, parse: oneOf(MATTRESS_OPTIONS) },
    deviceId: { header: 'sheet.col.deviceId', required: false, parse: text(64) },
  },
  sheetNotes: ['sheet.note.bedPath'],
  notes: {
    mattress: { key: 'sheet.note.oneOf', params: mattressLabels },
    deviceId: { key: 'sheet.note.deviceOfProvider' },
  },
  fields: { deviceCode: 'deviceId', name: 'bed' },
});

/** Bed spreadsheets (BunkManage): template, import (places and device links) and export. */
export class BedSheetService {
  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly places: PlaceService,
    private readonly occupancy: OccupancyService,
    private readonly view: FacilityViewService,
  ) {}

  template(lang: Language): BinaryBody {
    return sheetTemplate(BED_SHEET, lang, 'beds-template.xlsx');
  }

  /**
   * Creates the beds (and missing areas, floors and rooms), then links each named device, in one
   * transaction: a refused row anywhere leaves the facility as it was.
   */
  async import(actor: Actor, file: UploadedFile | undefined, providerId: number | undefined): Promise<number> {
    const lang = actor.lang ?? 'zh-CN';
    const content = await readSheet(file, BED_SHEET, lang);
    const { records } = content;
    const target = targetProvider(actor.caller, providerId);
    await this.transactions.run(async (tx, emit) => {
      const rows = records.map(({ values: v }) => ({
        area: v.area,
        floor: v.floor,
        room: v.room,
        bed: v.bed,
        mattress: v.mattress ?? undefined,
      }));
      const created = await this.places.importBeds(actor, { providerId: target, rows }, tx);
      refuseOnProblems(BED_SHEET, lang, content, created.problems.map(fromFacility));
      const problems: DomainProblem[] = [];
      for (const [index, { values }] of records.entries()) {
        const bedId = created.bedIds[index];
        if (!values.deviceId || bedId === undefined) continue;
        try {
          await this.occupancy.link(actor, { bedId, deviceCode: values.deviceId, confirm: false }, { tx, emit });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          problems.push({ index, field: 'deviceId', key: error.key, params: error.params });
        }
      }
      refuseOnProblems(BED_SHEET, lang, content, problems);
    });
    return records.length;
  }

  async export(actor: Actor, query: Omit<BedListQuery, 'pageNum' | 'pageSize'>): Promise<BinaryBody> {
    const { rows, total } = await this.view.bedList(actor.caller, { ...query, ...EXPORT_PAGE });
    assertExportable(total);
    const lang = actor.lang ?? 'zh-CN';
    return sheetExport(
      BED_SHEET,
      lang,
      'beds.xlsx',
      rows,
      (b: Bunk) => [
        b.areaName,
        b.floorName,
        b.roomName,
        b.name,
        translate(lang, `sheet.mattress.${b.mattress}`),
        b.deviceId,
      ],
      [
        { header: 'sheet.col.resident', value: (b) => b.userName },
        { header: 'sheet.col.provider', value: (b) => b.providerName },
      ],
    );
  }
}

const fromFacility = (p: {
  index: number;
  field: string;
  msgKey: DomainProblem['key'];
  params: DomainProblem['params'];
}) => ({
  index: p.index,
  field: p.field,
  key: p.msgKey,
  params: p.params,
});
