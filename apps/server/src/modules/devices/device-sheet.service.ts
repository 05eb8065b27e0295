import { DEVICE_TYPES, type BinaryBody, type DeviceRow, type Language, type UploadedFile } from '@vigil/contract';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Caller } from '../../core/caller.ts';
import { assertExportable, EXPORT_PAGE } from '../spreadsheet/export-limit.ts';
import {
  presentValues,
  readSheet,
  refuseOnProblems,
  sheetExport,
  sheetTemplate,
  type DomainProblem,
  type SheetContent,
  type SheetDefinition,
} from '../spreadsheet/sheet-import.ts';
import type { Columns } from '../spreadsheet/table-parser.ts';
import { DEVICE_SHEET, HOST_SHEET, INFRARED_SHEET, modelOf, onlineLabel, STOCK_SHEET } from './device-sheets.ts';
import type { AddRules, DeviceListInput } from './device.service.ts';
import type { DeviceServices } from './devices.module.ts';
import type { DeviceRowProblem } from './row-problems.ts';
import { PLACE_PATH_SEPARATOR } from './device-place.ts';

export interface SheetActor {
  caller: Caller;
  ip: string;
  lang: Language;
}

const GATEWAY_TYPE = DEVICE_TYPES.find((t) => t.kind === 'gateway_host')?.code;

/**
 * A registry duplicate names the earlier entry by its place in the list (from 1); in a spreadsheet
 * it is worded as the earlier row.
 */
const asSheetProblem =
  (content: SheetContent<Columns>) =>
  (p: DeviceRowProblem): DomainProblem => {
    if (p.key !== 'deviceStock.duplicate') return p;
    const other = content.records[Number(p.params.other) - 1]?.row ?? p.params.other;
    return { index: p.index, field: p.field, key: 'import.cell.duplicate', params: { other: other ?? '' } };
  };

/** Device spreadsheets: the provider's devices, the registry, gateway hosts and their infrared detectors. */
export class DeviceSheetService {
  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly s: DeviceServices,
  ) {}

  template(kind: 'device' | 'stock' | 'host' | 'infrared', lang: Language): BinaryBody {
    const filename = `${kind}-template.xlsx`;
    switch (kind) {
      case 'device':
        return sheetTemplate(DEVICE_SHEET, lang, filename);
      case 'stock':
        return sheetTemplate(STOCK_SHEET, lang, filename);
      case 'host':
        return sheetTemplate(HOST_SHEET, lang, filename);
      case 'infrared':
        return sheetTemplate(INFRARED_SHEET, lang, filename);
    }
  }

  /** Adds registry devices to a provider, with insertDevice's checks on every row. */
  addDevices(actor: SheetActor, file: UploadedFile | undefined, providerId: number | undefined) {
    return this.addWith(actor, file, DEVICE_SHEET, (v) => ({
      ...presentValues(v),
      ...(providerId ? { providerId } : {}),
    }));
  }

  /** Adds gateway hosts (of the gateway type) to a provider. */
  addHosts(actor: SheetActor, file: UploadedFile | undefined, providerId: number | undefined) {
    return this.addWith(
      actor,
      file,
      HOST_SHEET,
      (v) => ({ ...presentValues(v), deviceType: GATEWAY_TYPE, ...(providerId ? { providerId } : {}) }),
      ['gateway_host'],
    );
  }

  /** Pairs infrared detectors to hosts of the caller's providers: each joins its host's provider. */
  addInfrared(actor: SheetActor, file: UploadedFile | undefined) {
    return this.addWith(actor, file, INFRARED_SHEET, (v) => presentValues(v), ['infrared_motion']);
  }

  /** Loads manufactured device IDs into the registry (administrators). */
  async addToRegistry(actor: SheetActor, file: UploadedFile | undefined): Promise<number> {
    const content = await readSheet(file, STOCK_SHEET, actor.lang);
    // Rows checked and secrets hashed before the transaction, so hashing holds no connection.
    const prepared = await this.s.stock.prepare(
      actor.caller,
      content.records.map((r) => presentValues(r.values)),
      !content.problems.length,
    );
    await this.db.transaction(async (tx) => {
      const { problems } = await this.s.stock.addPrepared(actor.caller, prepared, tx, actor.ip);
      refuseOnProblems(STOCK_SHEET, actor.lang, content, problems.map(asSheetProblem(content)));
    });
    return content.records.length;
  }

  async exportDevices(actor: SheetActor, query: Omit<DeviceListInput, 'pageNum' | 'pageSize'>): Promise<BinaryBody> {
    const { rows, total } = await this.s.devices.list(actor.caller, { ...query, ...EXPORT_PAGE });
    assertExportable(total);
    const bedPath = (d: DeviceRow) =>
      d.bunkName === null ? null : [d.areaName, d.floorName, d.roomName, d.bunkName].join(' / ');
    // The place columns as an import reads them back: a bed's own monitor or radar is placed by its bed.
    const byBed = (d: DeviceRow) => d.kind === 'sleep_monitor' || d.kind === 'fall_radar';
    const placePath = (d: DeviceRow) =>
      byBed(d) || !(d.placeKind === 'bed' || d.placeKind === 'room' || d.placeKind === 'area')
        ? null
        : [d.areaName, d.floorName, d.roomName, d.placeKind === 'bed' ? d.bunkName : null]
            .filter((n): n is string => n !== null)
            .join(PLACE_PATH_SEPARATOR);
    const wornBy = (d: DeviceRow) =>
      d.placeKind === 'resident' ? d.userName : d.placeKind === 'caregiver' ? d.caregiverName : null;
    return sheetExport(
      DEVICE_SHEET,
      actor.lang,
      'devices.xlsx',
      rows,
      (d) => [d.deviceId, modelOf(d.deviceType), d.name, d.commMode, d.remark, placePath(d), wornBy(d)],
      [
        { header: 'sheet.col.online', value: (d) => onlineLabel(actor.lang, d.online) },
        { header: 'sheet.col.bed', value: bedPath },
        { header: 'sheet.col.resident', value: (d) => d.userName },
        { header: 'sheet.col.provider', value: (d) => d.providerName },
      ],
    );
  }

  /**
   * The devices module's batch add over a sheet's rows, in one transaction: any problem (cells or
   * the add checks) refuses the file and adds nothing.
   */
  private async addWith<C extends Columns>(
    actor: SheetActor,
    file: UploadedFile | undefined,
    sheet: SheetDefinition<C>,
    input: (values: Record<string, unknown>) => Record<string, unknown>,
    kinds?: AddRules['kinds'],
  ): Promise<number> {
    const content = await readSheet(file, sheet, actor.lang);
    await this.transactions.run(async (tx, emit) => {
      const rows = content.records.map((r) => input(r.values as Record<string, unknown>));
      const { problems } = await this.s.devices.addMany(
        actor.caller,
        rows,
        { tx, emit },
        actor.ip,
        kinds ? { kinds } : {},
      );
      refuseOnProblems(sheet, actor.lang, content, problems);
    });
    return content.records.length;
  }
}
