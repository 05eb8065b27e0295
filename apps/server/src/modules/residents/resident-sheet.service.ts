import {
  CONTACT_RELATIONS,
  MEDICAL_HISTORY,
  NewResidentSchema,
  PLACE_NAME_MAX,
  RESIDENT_LIMITS,
  translate,
  type BinaryBody,
  type Bunk,
  type Language,
  type UploadedFile,
} from '@vigil/contract';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { targetProvider } from '../../core/tenant.ts';
import type { CommunityService } from '../communities/community.service.ts';
import type { FacilityViewService } from '../facility/facility-view.service.ts';
import { bedPathKey } from '../facility/facility.policy.ts';
import type { Actor, OccupancyService } from '../facility/occupancy.service.ts';
import { date, gender, integer, listOf, oneOf, text, yesNo } from '../spreadsheet/cells.ts';
import { assertExportable, EXPORT_PAGE } from '../spreadsheet/export-limit.ts';
import { askToConfirm } from '../spreadsheet/import-outcome.ts';
import {
  defineSheet,
  readSheet,
  refuseOnProblems,
  sheetExport,
  sheetTemplate,
  rowsWithoutProblems,
  validateRows,
  wordRowProblems,
  type DomainProblem,
} from '../spreadsheet/sheet-import.ts';
import type { ResidentListInput, ResidentService } from './resident.service.ts';

const HISTORY = MEDICAL_HISTORY.map((h) => ({ value: h, label: `sheet.history.${h}` as const }));
const RELATIONS = CONTACT_RELATIONS.map((r) => ({ value: r, label: `sheet.relation.${r}` as const }));
const labels = (options: readonly { label: Parameters<typeof translate>[1] }[]) => (lang: Language) => ({
  options: options.map((o) => translate(lang, o.label)).join(', '),
});
const contactName = text(RESIDENT_LIMITS.contactNameMaxLength);
const phone = text(32);
const place = text(PLACE_NAME_MAX);

export const RESIDENT_SHEET = defineSheet({
  name: 'sheet.name.residents',
  columns: {
    name: { header: 'sheet.col.name', required: true, parse: text(RESIDENT_LIMITS.nameMaxLength) },
    gender: { header: 'sheet.col.gender', required: true, parse: gender },
    birthDate: { header: 'sheet.col.birthDate', required: true, parse: date },
    height: { header: 'sheet.col.height', required: false, parse: integer(1, RESIDENT_LIMITS.heightMax) },
    weight: { header: 'sheet.col.weight', required: false, parse: integer(1, RESIDENT_LIMITS.weightMax) },
    medicalHistory: { header: 'sheet.col.medicalHistory', required: false, parse: listOf(HISTORY) },
    otherHistory: {
      header: 'sheet.col.otherHistory',
      required: false,
      parse: text(RESIDENT_LIMITS.otherHistoryMaxLength),
    },
    contactName: { header: 'sheet.col.contactName', required: false, parse: contactName },
    contactPhone: { header: 'sheet.col.contactPhone', required: false, parse: phone },
    contactRelation: { header: 'sheet.col.contactRelation', required: false, parse: oneOf(RELATIONS) },
    contact2Name: { header: 'sheet.col.contact2Name', required: false, parse: contactName },
    contact2Phone: { header: 'sheet.col.contact2Phone', required: false, parse: phone },
    contact2Relation: { header: 'sheet.col.contact2Relation', required: false, parse: oneOf(RELATIONS) },
    priority: { header: 'sheet.col.priority', required: false, parse: yesNo },
    community: { header: 'sheet.col.community', required: false, parse: text(64) },
    remark: { header: 'sheet.col.remark', required: false, parse: text(200) },
    area: { header: 'sheet.col.area', required: false, parse: place },
    floor: { header: 'sheet.col.floor', required: false, parse: place },
    room: { header: 'sheet.col.room', required: false, parse: place },
    bed: { header: 'sheet.col.bed', required: false, parse: place },
  },
  sheetNotes: ['sheet.note.residentBed'],
  notes: {
    gender: {
      key: 'sheet.note.oneOf',
      params: (lang) => ({
        options: `${translate(lang, 'sheet.gender.male')}, ${translate(lang, 'sheet.gender.female')}`,
      }),
    },
    birthDate: { key: 'sheet.note.date' },
    height: { key: 'sheet.note.range', params: () => ({ min: 1, max: RESIDENT_LIMITS.heightMax }) },
    weight: { key: 'sheet.note.range', params: () => ({ min: 1, max: RESIDENT_LIMITS.weightMax }) },
    medicalHistory: { key: 'sheet.note.list', params: labels(HISTORY) },
    contactPhone: { key: 'sheet.note.phone' },
    contactRelation: { key: 'sheet.note.oneOf', params: labels(RELATIONS) },
    contact2Phone: { key: 'sheet.note.phone' },
    contact2Relation: { key: 'sheet.note.oneOf', params: labels(RELATIONS) },
    priority: {
      key: 'sheet.note.oneOf',
      params: (lang) => ({ options: `${translate(lang, 'sheet.yes')}, ${translate(lang, 'sheet.no')}` }),
    },
  },
  fields: {
    'contacts.0.name': 'contactName',
    'contacts.0.phone': 'contactPhone',
    'contacts.0.relation': 'contactRelation',
    'contacts.1.name': 'contact2Name',
    'contacts.1.phone': 'contact2Phone',
    'contacts.1.relation': 'contact2Relation',
    contacts: 'contactPhone',
    communityId: 'community',
  },
});

type Values = Awaited<ReturnType<typeof readSheet<typeof RESIDENT_SHEET.columns>>>['records'][number]['values'];

const contactOf = (name: string | null, phoneValue: string | null, relation: string | null) =>
  name || phoneValue || relation ? [{ name: name ?? '', phone: phoneValue ?? '', relation: relation ?? '' }] : [];

/**
 * A second contact given without a first one travels as `contacts.0`: its problems belong to the
 * second contact's columns.
 */
const contactSlot = (v: Values | undefined, field: string): string => {
  if (!v || !field.startsWith('contacts.0.')) return field;
  const firstGiven = Boolean(v.contactName || v.contactPhone || v.contactRelation);
  return firstGiven ? field : field.replace('contacts.0.', 'contacts.1.');
};

/** Resident spreadsheets (people-manage): template, import (register, then check in) and export. */
export class ResidentSheetService {
  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly residents: ResidentService,
    private readonly occupancy: OccupancyService,
    private readonly facility: FacilityViewService,
    private readonly communities: CommunityService,
  ) {}

  template(lang: Language): BinaryBody {
    return sheetTemplate(RESIDENT_SHEET, lang, 'residents-template.xlsx');
  }

  /**
   * Registers every resident and checks those with a bed in, in one transaction; every problem of
   * every row (cells, contract rules, names, beds) is reported at once and nothing is kept.
   */
  async import(
    actor: Actor,
    input: { file?: UploadedFile | undefined; providerId?: number | undefined; confirmSameName?: boolean | undefined },
  ): Promise<{ imported: number; checkedIn: number }> {
    const lang = actor.lang ?? 'zh-CN';
    const content = await readSheet(input.file, RESIDENT_SHEET, lang);
    const { records } = content;
    const providerId = targetProvider(actor.caller, input.providerId);
    // The provider's communities and beds are read only when some row names one.
    const communityIds = records.some((r) => r.values.community)
      ? await this.communityIds(actor, providerId)
      : new Map<string, number>();
    const beds = records.some((r) => [r.values.area, r.values.floor, r.values.room, r.values.bed].some(Boolean))
      ? await this.facility.bedsByPath(providerId)
      : new Map<string, Pick<Bunk, 'id' | 'userName'>>();

    const problems: DomainProblem[] = [];
    /** Bed id → the spreadsheet row that claimed it first. */
    const claimed = new Map<number, number>();
    const bedOf: (number | null)[] = records.map(({ values: v }, index) => {
      const parts = [v.area, v.floor, v.room, v.bed];
      if (parts.every((p) => p === null)) return null;
      if (parts.some((p) => p === null)) {
        problems.push({ index, field: 'bed', key: 'import.bedPathIncomplete' });
        return null;
      }
      const path = parts.join(' / ');
      const bed = beds.get(bedPathKey(v.area ?? '', v.floor ?? '', v.room ?? '', v.bed ?? ''));
      const first = bed ? claimed.get(bed.id) : undefined;
      if (!bed) problems.push({ index, field: 'bed', key: 'import.bedNotFound', params: { path } });
      else if (bed.userName !== null) {
        problems.push({ index, field: 'bed', key: 'import.bedTaken', params: { path, resident: bed.userName } });
      } else if (first !== undefined) {
        problems.push({ index, field: 'bed', key: 'import.cell.duplicate', params: { other: first } });
      } else claimed.set(bed.id, records[index]?.row ?? index + 2);
      return bed?.id ?? null;
    });
    const inputs = records.map(({ values: v }, index) => {
      let communityId: number | undefined;
      if (v.community) {
        communityId = communityIds.get(v.community.toLowerCase());
        if (communityId === undefined) {
          problems.push({ index, field: 'community', key: 'import.communityNotFound', params: { name: v.community } });
        }
      }
      return this.residentInput(v, communityId);
    });
    const validated = validateRows(NewResidentSchema, inputs);
    problems.push(...validated.problems.map((p) => ({ ...p, field: contactSlot(records[p.index]?.values, p.field) })));

    return this.transactions.run(async (tx, emit) => {
      // The domain checks run only on rows whose cells and fields are valid; their indexes map back.
      const { indexes: good, rows } = rowsWithoutProblems(validated.parsed, problems);
      const outcome = await this.residents.createMany(actor.caller, rows, tx, {
        ip: actor.ip,
        providerId,
        confirmSameName: input.confirmSameName === true,
      });
      if (!outcome.ok) {
        for (const p of outcome.problems) {
          problems.push({ index: good[p.index] ?? p.index, field: p.field, key: p.key, params: p.params });
        }
      }
      const onlyNames = problems.length > 0 && problems.every((p) => p.key === 'resident.sameName');
      if (onlyNames && !content.problems.length) {
        throw askToConfirm(
          'import.sameNameConfirm',
          wordRowProblems(RESIDENT_SHEET, lang, records, problems),
          'confirmSameName',
        );
      }
      refuseOnProblems(RESIDENT_SHEET, lang, content, problems);
      if (!outcome.ok) throw new Error('unreachable: refused above');

      const checkIns = outcome.ids.flatMap((residentId, i) => {
        const bedId = bedOf[good[i] ?? -1];
        return bedId ? [{ residentId, bedId, index: good[i] ?? i }] : [];
      });
      const failed = await this.occupancy.checkInMany(actor, checkIns, { tx, emit });
      refuseOnProblems(
        RESIDENT_SHEET,
        lang,
        content,
        failed.map((p) => ({
          index: checkIns[p.index]?.index ?? p.index,
          field: 'bed',
          key: p.msgKey,
          params: p.params,
        })),
      );
      return { imported: records.length, checkedIn: checkIns.length };
    });
  }

  async export(actor: Actor, query: Omit<ResidentListInput, 'pageNum' | 'pageSize'>): Promise<BinaryBody> {
    const { rows, total } = await this.residents.exportRows(actor.caller, { ...query, ...EXPORT_PAGE });
    assertExportable(total);
    const lang = actor.lang ?? 'zh-CN';
    const t = (key: Parameters<typeof translate>[1]) => translate(lang, key);
    // Stored relations are the contract's codes; an unexpected one is exported as is.
    const relationLabel = (relation: string) => {
      const known = RELATIONS.find((r) => r.value === relation);
      return known ? t(known.label) : relation;
    };
    return sheetExport(
      RESIDENT_SHEET,
      lang,
      'residents.xlsx',
      rows,
      ({ row: r, otherHistory, contacts }) => {
        const [c1, c2] = contacts;
        // A resident checked out keeps a room address but has no bed: no bed path, so it re-imports unplaced.
        const placed = r.bedName !== null;
        return [
          r.name,
          t(r.gender === 0 ? 'sheet.gender.male' : 'sheet.gender.female'),
          r.birthDate,
          r.height,
          r.weight,
          r.medicalHistory.map((h) => t(`sheet.history.${h}`)).join(', '),
          otherHistory,
          c1?.name ?? null,
          c1?.phone ?? null,
          c1 ? relationLabel(c1.relation) : null,
          c2?.name ?? null,
          c2?.phone ?? null,
          c2 ? relationLabel(c2.relation) : null,
          t(r.priority ? 'sheet.yes' : 'sheet.no'),
          r.communityName,
          r.remark,
          placed ? r.areaName : null,
          placed ? r.floorName : null,
          placed ? r.roomName : null,
          r.bedName,
        ];
      },
      [
        { header: 'sheet.col.state', value: ({ row }) => t(`sheet.state.${row.state}`) },
        { header: 'sheet.col.provider', value: ({ row }) => row.providerName },
      ],
    );
  }

  private residentInput(v: Values, communityId: number | undefined) {
    return {
      name: v.name,
      gender: v.gender,
      birthDate: v.birthDate,
      height: v.height ?? undefined,
      weight: v.weight ?? undefined,
      medicalHistory: v.medicalHistory ?? [],
      otherHistory: v.otherHistory ?? undefined,
      contacts: [
        ...contactOf(v.contactName, v.contactPhone, v.contactRelation),
        ...contactOf(v.contact2Name, v.contact2Phone, v.contact2Relation),
      ],
      priority: v.priority ?? false,
      remark: v.remark ?? undefined,
      communityId,
    };
  }

  /** The provider's communities by lower-case name. */
  private async communityIds(actor: Actor, providerId: number): Promise<Map<string, number>> {
    const { rows } = await this.communities.list(actor.caller, { pageNum: 1, pageSize: 10_000, providerId });
    return new Map(rows.map((c) => [c.name.toLowerCase(), c.id]));
  }
}
