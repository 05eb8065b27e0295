/**
 * Tools for the contract-driven tenancy matrix (tenancy-matrix.ts):
 *  - an input generator that turns every declared call's request schema into probe inputs
 *    whose reference fields point at another tenant's objects;
 *  - a snapshot of every row owned by (or pointing at) that tenant, taken from the schema itself;
 *  - a leak detector for response bodies.
 *
 * A call or table the generator or snapshot does not understand fails loudly: teach it here.
 */
import { defaultBedRules } from '../modules/alarms/bed-alarm-settings.service.ts';
import { encodePng } from '../modules/system/png-fixture.ts';
import { zipSync } from 'fflate';
import { createHash, randomUUID } from 'node:crypto';
import type { CallDef } from '@vigil/contract';
import { inArray, is, or, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Executor } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { SEEDED_DEVICE_TYPES } from './tenancy-devices.ts';
import { isSheetImport, sheetUpload } from './tenancy-sheets.ts';

/** Every name, nick name, remark, number and login account of the foreign tenant contains this. */
export const MARKER = 'FOREIGNB';

/** The objects of the foreign tenant, plus a few harmless objects of the caller's own tenant. */
export interface ProbeRefs {
  foreign: {
    providers: { label: string; id: number; domain: string }[];
    accounts: { label: string; id: number; userName: string }[];
    /**
     * Login names probed in `userName` fields: one of each kind (a provider's login, a provider's
     * sub-account, a platform account); every account stays probed by id.
     */
    userNames: string[];
  };
  /**
   * Sacrificial objects of the probing tenant: a call given one of them passes its first
   * guard, so a foreign id in another field reaches the next check.
   */
  own: { providerId: number; accountId: number; visibleProviderId: number; visibleDomain: string };
  /**
   * Tenant rows by kind (resident, caregiver, community, …): the foreign tenant's, and one of the
   * probing tenant's own (`own`, probed as the harmless value). Each domain seeds its kinds.
   */
  objects: Record<string, { foreign: { label: string; id: number | string }[]; own?: number | string }>;
}

export class ProbeGenerationError extends Error {
  override name = 'ProbeGenerationError';
}

/** The developer-facing message for a call the generator cannot build inputs for. */
const teach = (call: string, field: string, why: string) =>
  new ProbeGenerationError(
    `tenancy probe: cannot generate input for ${call}.${field}: ${why}. ` +
      'Teach the generator in apps/server/src/test/tenancy-probe.ts (REFERENCE_FIELDS / ID_KIND_BY_TAG / sampleString) ' +
      'so the tenancy matrix can probe this call with another tenant\u2019s objects.',
  );

type RefKind = 'provider' | 'account';

/**
 * What `id` refers to, by the call's tag: a provider, an account, or a kind of refs.objects.
 * A tag missing here fails the matrix for calls with an `id`.
 */
export const ID_KIND_BY_TAG: Record<string, RefKind | string> = {
  provider: 'provider',
  account: 'account',
  nursing: 'caregiver',
  community: 'community',
  family: 'emergencyContact',
  area: 'area',
  room: 'room',
  bunk: 'bed',
  // By-id resident calls: the own one is checked in, so deleteById never removes it.
  resident: 'residentById',
  alarm: 'alarm',
  // App and H5 releases: rows of the platform itself (see platformChoices).
  appVersion: 'platform:appVersion',
  h5Version: 'platform:h5Version',
  // Firmware packages: platform rows too; the devices they go to are tenant rows (deviceIds).
  firmware: 'platform:firmware',
};

/**
 * Fields that reference objects, by name. Any other field named `id`, `…Id` or `…Ids` fails
 * generation until it is added here, so a new reference can never go unprobed.
 */
export const REFERENCE_FIELDS = {
  id: 'id-by-tag',
  providerId: 'provider',
  parentId: 'provider',
  providerIds: 'provider-list',
  domain: 'domain',
  userName: 'userName',
  // 'object:<kind>' is one row of refs.objects[kind], 'objects:<kind>' a list of them.
  residentId: 'object:resident',
  residentIds: 'objects:resident',
  communityId: 'object:community',
  receiverIds: 'objects:caregiver',
  // Facility: an area or floor, a floor, a room (by id or exact name), a bed ("bunk"), a resident
  // ("user") and a bed device by its device ID.
  areaId: 'object:area',
  floorId: 'object:floor',
  roomId: 'object:room',
  roomName: 'object:roomName',
  bunkId: 'object:bed',
  userId: 'object:resident',
  // Monitoring: the residents whose vitals a session follows.
  userIds: 'objects:resident',
  deviceId: 'object:deviceCode',
  // Devices: a gateway host (by device ID) and the replacement of a device.
  hostDeviceId: 'object:gatewayCode',
  newDeviceId: 'object:deviceCode',
  // Residents: the carers linked to one.
  caregiverIds: 'objects:caregiver',
  // Devices: the caregiver who wears a nurse watch (its place).
  caregiverId: 'object:caregiver',
  // Branding: a stored logo file (its address, /system/file?id=…).
  logoUrl: 'object:logo',
  // App releases: an uploaded package, a row of the platform itself (see platformChoices).
  fileId: 'platform:appPackage',
  h5FileId: 'platform:appPackage',
  // Firmware: the devices of a package's whitelist, by device ID.
  deviceIds: 'objects:deviceCode',
} as const;

/** Strings of a fixed form that sampleString cannot guess, by field name (fresh on every build). */
const FIELD_SAMPLES: Record<string, () => string> = {
  phone: () => `139${String(++counter).padStart(8, '0')}`,
  sleepTime: () => '22:00',
  wakeTime: () => '06:30',
  // Raw data days (original data calls): today, in UTC, the day the devices seed writes raw rows on.
  day: () => new Date().toISOString().slice(0, 10),
  // Sleep report calls: yesterday's night, ended at any time of day (tenancy-reports.ts seeds it),
  // and its month (reports seeded or not, the caller's scope decides).
  date: () => reportNight(),
  month: () => reportNight().slice(0, 7),
  // App releases: versions and builds fresh on every build, builds rising (a published build must be higher).
  versionName: () => `1.0.${++counter}`,
  h5VersionName: () => `2.0.${++counter}`,
  buildNumber: () => String(++counter),
  // Firmware uploads: versions rising (a new one must be higher than those released), and the
  // MD5 of the sample package the upload sends.
  version: () => `1.${++counter}`,
  md5: () => FIRMWARE_SAMPLE_MD5,
};

/** The night the report probes ask for and the matrix seeds: yesterday's (UTC), over whatever the hour. */
export const reportNight = (now = new Date()): string =>
  new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);

/** Objects with no references inside, by field name: probed with a valid value (or left out when optional). */
const OBJECT_SAMPLES: Record<string, unknown> = {
  alertTypeL1: { pc: true, globalVoiceWay: 3 },
  alertTypeL2: { pc: true, globalVoiceWay: 2 },
  levelMap: { DOOR: 2 },
  rules: defaultBedRules(),
  // Firmware: a full release's stages (cumulative per cent).
  stages: [10, 100],
};

/** Object fields that name other rows: the kind of row, and the object around a list of their ids. */
const OBJECT_REFERENCES: Record<string, [kind: string, wrap: (ids: unknown) => unknown]> = {
  receivers: ['caregiver', (ids) => ({ receiverIds: ids, notify: ['sms'] })],
};

/** Free-text search fields: probed with the marker so an unscoped search shows up as a leak. */
const SEARCH_FIELDS = new Set(['keyWord', 'keyword']);
const PASSWORD_FIELD = /pass_?word$/i;
const LOOKS_LIKE_REFERENCE = /(^id$|Id$|Ids$|_id$)/;
export const PROBE_PASSWORD = 'Care#Home2026';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
}

const OMIT = Symbol('omit');
interface Choice {
  label: string;
  make: () => unknown;
}
/**
 * `ref` dimensions (references and searches) are varied one at a time around a base where every
 * other reference takes its harmless value (`happy`: omitted, fresh or the caller's own object),
 * so each foreign value reaches the check that guards it. `rotate` dimensions (operation types,
 * roles, filters) take each of their values across the bases.
 */
interface Dim {
  field: string;
  kind: 'ref' | 'rotate';
  choices: Choice[];
  happy: number;
  /** An enum (operation type, role, permission type): its values are also tried in every combination. */
  combine?: boolean;
}

export interface Variant {
  label: string;
  /** A fresh input (fresh unique names on every build) as the harness's app.call takes it. */
  build: () => Record<string, unknown> | FormData;
}

export interface CallPlan {
  name: string;
  call: CallDef;
  variants: Variant[];
}

const fixed = (label: string, value: unknown): Choice => ({ label, make: () => value });
/** Reference values that stay inside the caller's own tenant. */
const HAPPY_LABELS = new Set(['own-spare-provider', 'own-spare-account', 'own-domain', 'fresh-userName', '[]']);
const omitted: Choice = { label: '\u2205', make: () => OMIT };

/**
 * Rows of the platform itself (app versions, H5 packages, their uploads): no tenant owns one, so
 * there is no other tenant's row to probe with. Probed with the first ids, which the platform
 * administrator's own earlier probes of the same domain create (calls run in catalogue order:
 * upload, add, publish, take down, delete), so the calls are seen to succeed as well as to hold.
 */
const PLATFORM_ROW_IDS = [1, 2];
const platformChoices = (kind: string): Choice[] =>
  PLATFORM_ROW_IDS.map((id) => fixed(`${kind.replace(':', '-')}-${id}`, id));

/** A small zip archive, as package uploads must be. */
const sampleZip = (entry: string): Uint8Array => zipSync({ [entry]: new TextEncoder().encode('probe') });
/** The firmware package every probe uploads (a real zip, so the upload's checks pass). */
const FIRMWARE_SAMPLE = sampleZip('firmware.bin');
const FIRMWARE_SAMPLE_MD5 = createHash('md5').update(FIRMWARE_SAMPLE).digest('hex');

/** Multipart package uploads: a file of each kind, in the order of the call's kind enum. */
const PACKAGE_UPLOADS: Record<string, Choice[]> = {
  firmwareUpload: [
    fixed('firmware-zip', { filename: 'firmware.zip', mimetype: 'application/zip', bytes: FIRMWARE_SAMPLE }),
  ],
  appPackageUpload: [
    fixed('apk', {
      filename: 'app.apk',
      mimetype: 'application/vnd.android.package-archive',
      bytes: sampleZip('AndroidManifest.xml'),
    }),
    fixed('h5-zip', { filename: 'h5.zip', mimetype: 'application/zip', bytes: sampleZip('index.html') }),
  ],
};

let counter = 0;
/** Unique letters-and-digits strings, never containing the marker. */
export const freshToken = (): string => `probe${String(++counter).padStart(6, '0')}`;

/** A whole, valid PNG of the logo size (200×200): the server decodes every byte. */
export const samplePng = (width = 200, height = 200): Uint8Array => new Uint8Array(encodePng(width, height));

const unwrapNullable = (node: JsonSchema): JsonSchema => {
  const branches = node.anyOf ?? node.oneOf;
  if (!branches) return node;
  const nonNull = branches.filter((b) => b.type !== 'null');
  if (nonNull.length === 1 && nonNull.length < branches.length) {
    const [only] = nonNull;
    return { ...only, ...(node.default === undefined ? {} : { default: node.default }) };
  }
  return node;
};

/** A zod boolean that also takes "true"/"false"/"1"/"0". */
const isFlag = (node: JsonSchema): boolean =>
  !!node.anyOf?.some((b) => b.type === 'boolean') && node.anyOf.every((b) => b.type === 'boolean' || !!b.enum);

const enumValues = (node: JsonSchema): unknown[] | undefined => {
  if (node.enum) return node.enum;
  if (node.const !== undefined) return [node.const];
  if (node.type === 'boolean') return [false, true];
  const branches = node.anyOf ?? node.oneOf;
  if (branches?.length && branches.every((b) => b.const !== undefined || b.enum)) {
    return branches.flatMap((b) => b.enum ?? [b.const]);
  }
  return undefined;
};

const fits = (node: JsonSchema, s: string): boolean =>
  s.length >= (node.minLength ?? 0) &&
  s.length <= (node.maxLength ?? Infinity) &&
  (!node.pattern || new RegExp(node.pattern).test(s));

/** A valid sample for a string field, or undefined when none of the candidates satisfies it. */
const sampleString = (node: JsonSchema): (() => string) | undefined => {
  if (node.format === 'uuid') return () => randomUUID();
  if (node.format === 'email') return () => `${freshToken()}@example.com`;
  if (node.format === 'uri' || node.format === 'url') return () => `https://example.com/${freshToken()}`;
  // Calendar dates (birth dates) in the past; instants an hour ahead (planned absences).
  if (node.format === 'date') return () => '1950-06-15';
  if (node.format === 'date-time') return () => new Date(Date.now() + 3_600_000).toISOString();
  if (node.format && !['regex'].includes(node.format)) return undefined;
  const pad = (s: string) => s.padEnd(node.minLength ?? 0, '0');
  const candidates: (() => string)[] = [
    () => pad(freshToken()),
    () => freshToken().slice(-(node.maxLength ?? 11)),
    () => 'a'.repeat(Math.max(node.minLength ?? 1, 64)),
    () => String(Math.floor(Date.now() / 1000)),
  ];
  return candidates.find((c) => fits(node, c()));
};

const numberSample = (field: string, node: JsonSchema): number => {
  if (/^(pageSize|limit)$/.test(field)) return Math.min(node.maximum ?? 1000, 1000);
  if (typeof node.default === 'number') return node.default;
  return node.minimum ?? 1;
};

/** Dimensions of one call's request: every field with the values it is probed with. */
const dimensionsOf = (name: string, call: CallDef, refs: ProbeRefs): Dim[] => {
  if (call.input === 'multipart' && !(call.request instanceof z.ZodObject)) {
    throw teach(name, 'body', 'multipart request is not an object');
  }
  const root = z.toJSONSchema(call.request, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  if (root.type !== 'object' || !root.properties) throw teach(name, 'body', 'request is not a plain object');
  const required = new Set(root.required ?? []);
  const dims: Dim[] = [];
  const { foreign, own } = refs;
  const providerChoices = foreign.providers.map((p) => fixed(p.label, p.id));
  const accountChoices = foreign.accounts.map((a) => fixed(a.label, a.id));
  const rotate = (field: string, choices: Choice[], combine = false) =>
    dims.push({ field, kind: 'rotate', choices, happy: 0, combine });
  /** The foreign rows of a kind (alone, or in a list beside the caller's own row) and the own row. */
  const objectChoices = (kind: string, list: boolean): Choice[] => {
    const objects = refs.objects[kind];
    if (!objects?.foreign.length) throw teach(name, kind, `no foreign "${kind}" rows seeded (refs.objects)`);
    const mine = objects.own;
    if (!list) {
      return [
        ...objects.foreign.map((o) => fixed(o.label, o.id)),
        ...(mine === undefined ? [] : [fixed(`own-${kind}`, mine)]),
      ];
    }
    return [
      ...objects.foreign.map((o) => fixed(`[${o.label}]`, [o.id])),
      ...(mine === undefined
        ? []
        : [
            fixed(`[own,${objects.foreign.at(-1)?.label}]`, [mine, objects.foreign.at(-1)?.id]),
            fixed(`own-[${kind}]`, [mine]),
          ]),
    ];
  };

  for (const [field, raw] of Object.entries(root.properties)) {
    const node = unwrapNullable(raw);
    const optional = !required.has(field);
    const hasDefault = node.default !== undefined || raw.default !== undefined;
    const maybeOmit = (choices: Choice[]) => (optional && !hasDefault ? [omitted, ...choices] : choices);
    const ref = (REFERENCE_FIELDS as Record<string, string>)[field];

    if (ref) {
      let choices: Choice[];
      switch (ref) {
        case 'id-by-tag': {
          const kind = ID_KIND_BY_TAG[call.tag];
          if (!kind) throw teach(name, field, `no reference kind for id in tag "${call.tag}" (ID_KIND_BY_TAG)`);
          choices =
            kind === 'provider'
              ? [...providerChoices, fixed('own-spare-provider', own.providerId)]
              : kind === 'account'
                ? [...accountChoices, fixed('own-spare-account', own.accountId)]
                : kind.startsWith('platform:')
                  ? platformChoices(kind)
                  : objectChoices(kind, false);
          break;
        }
        case 'provider':
          choices = providerChoices;
          break;
        case 'provider-list':
          choices = [
            ...foreign.providers.map((p) => fixed(`[${p.label}]`, [p.id])),
            fixed(`[own,${foreign.providers.at(-1)?.label}]`, [own.visibleProviderId, foreign.providers.at(-1)?.id]),
            ...(hasDefault ? [fixed('[]', [])] : []),
          ];
          break;
        case 'domain':
          choices = [
            ...foreign.providers.map((p) => fixed(`${p.label}.domain`, p.domain)),
            fixed('own-domain', own.visibleDomain),
          ];
          break;
        case 'userName': {
          const fresh = sampleString(node);
          choices = [
            ...foreign.userNames.map((u) => fixed(u, u)).filter((c) => fits(node, String(c.make()))),
            ...(fresh ? [{ label: 'fresh-userName', make: fresh }] : []),
          ];
          break;
        }
        default: {
          const [form, kind] = ref.split(':');
          if (form === 'platform' && kind) {
            choices = platformChoices(ref);
            break;
          }
          if ((form !== 'object' && form !== 'objects') || !kind) {
            throw teach(name, field, `unknown reference kind ${ref}`);
          }
          choices = objectChoices(kind, form === 'objects');
        }
      }
      if (!choices.length) throw teach(name, field, 'no foreign object fits the field');
      const all = maybeOmit(choices);
      const happy = all.findIndex((c) => c === omitted || HAPPY_LABELS.has(c.label) || c.label.startsWith('own-'));
      dims.push({ field, kind: 'ref', choices: all, happy: Math.max(happy, 0) });
      continue;
    }
    if (LOOKS_LIKE_REFERENCE.test(field)) {
      throw teach(name, field, 'looks like a reference to an object but is not in REFERENCE_FIELDS');
    }
    if (SEARCH_FIELDS.has(field)) {
      dims.push({ field, kind: 'ref', choices: [omitted, fixed('marker', MARKER)], happy: 0 });
      continue;
    }
    if (isFlag(node)) {
      const d = node.default ?? raw.default;
      // Flags with a default keep it; optional filter flags are left out or false.
      const flagChoices =
        d !== undefined
          ? [fixed(String(d), d)]
          : optional
            ? [omitted, fixed('false', false)]
            : [fixed('false', false), fixed('true', true)];
      rotate(field, flagChoices);
      continue;
    }
    const values = enumValues(node);
    if (values) {
      rotate(field, maybeOmit(values.map((v) => fixed(String(v), v))), true);
      continue;
    }
    const type = Array.isArray(node.type) ? node.type[0] : node.type;
    switch (type) {
      case 'string': {
        if (PASSWORD_FIELD.test(field)) {
          rotate(field, maybeOmit([fixed('password', PROBE_PASSWORD)]));
          break;
        }
        const make = FIELD_SAMPLES[field] ?? sampleString(node);
        if (!make) throw teach(name, field, `no sample satisfies ${JSON.stringify(node)}`);
        rotate(field, maybeOmit([{ label: field, make }]));
        break;
      }
      case 'integer':
      case 'number': {
        const value = numberSample(field, node);
        rotate(field, hasDefault ? [fixed(String(value), value)] : maybeOmit([fixed(String(value), value)]));
        break;
      }
      case 'object': {
        if (field in OBJECT_REFERENCES) {
          // An object naming other rows: probed with each foreign row (and the own one) in it.
          const [kind, wrap] = OBJECT_REFERENCES[field] as (typeof OBJECT_REFERENCES)[string];
          const choices = objectChoices(kind, true).map((c) => ({
            label: `${field}:${c.label}`,
            make: () => wrap(c.make()),
          }));
          rotate(field, maybeOmit(choices));
          break;
        }
        if (!(field in OBJECT_SAMPLES)) throw teach(name, field, 'unsupported type object (OBJECT_SAMPLES)');
        rotate(field, maybeOmit([fixed(field, OBJECT_SAMPLES[field])]));
        break;
      }
      case 'array': {
        // A non-empty list with a default (e.g. notification modes) is probed with its default.
        const listDefault = node.default ?? raw.default;
        if (Array.isArray(listDefault) && listDefault.length) {
          rotate(field, [fixed(JSON.stringify(listDefault), listDefault)]);
          break;
        }
        if (field in OBJECT_SAMPLES) {
          rotate(field, maybeOmit([fixed(field, OBJECT_SAMPLES[field])]));
          break;
        }
        if ((node.minItems ?? 0) > 0) throw teach(name, field, 'non-empty array of unknown items');
        rotate(field, maybeOmit([fixed('[]', [])]));
        break;
      }
      case undefined:
        if (call.input === 'multipart' && isSheetImport(name)) {
          // The file is a reference: harmless rows first, then rows naming each foreign device.
          const sheetOf = (label: string, device?: { code: string; type: number }): Choice => ({
            label,
            make: () => sheetUpload(name, device),
          });
          const devicesOf = refs.objects.deviceCode?.foreign ?? [];
          dims.push({
            field,
            kind: 'ref',
            happy: 0,
            choices: [
              sheetOf('sheet-own'),
              ...devicesOf.map((d) =>
                sheetOf(`sheet-${d.label}`, { code: String(d.id), type: SEEDED_DEVICE_TYPES[String(d.id)] ?? 49 }),
              ),
            ],
          });
          break;
        }
        if (call.input === 'multipart' && name in PACKAGE_UPLOADS) {
          // A real zip of each kind, in step with the kind field's values (its enum order).
          rotate(field, PACKAGE_UPLOADS[name] ?? []);
          break;
        }
        if (call.input === 'multipart' && Object.keys(node).length === 0) {
          rotate(field, maybeOmit([fixed('png', { filename: 'logo.png', mimetype: 'image/png', bytes: samplePng() })]));
          break;
        }
        throw teach(name, field, `unrepresentable schema ${JSON.stringify(raw)}`);
      default:
        throw teach(name, field, `unsupported type ${String(type)}`);
    }
  }
  return dims;
};

/** Enum combinations tried as plain bases only while there are at most this many. */
const MAX_COMBINATIONS = 64;

/**
 * Variant rows (an index into each dimension's choices):
 *  - bases where the `rotate` dimensions take each of their values in turn and references their
 *    harmless value, and around each base every foreign value of every reference, one at a time
 *    (each foreign value meets each operation type, role or filter value);
 *  - plain bases for every combination of the enum dimensions (e.g. each role with each
 *    permission type), so what a caller may do inside its own tenant is tried in full too.
 */
export const variantRows = (dims: readonly Pick<Dim, 'kind' | 'choices' | 'happy' | 'combine'>[]): number[][] => {
  const rotating = dims.filter((d) => d.kind === 'rotate');
  const bases = Math.max(1, ...rotating.map((d) => d.choices.length));
  const rows = new Map<string, number[]>();
  const add = (row: number[]) => rows.set(row.join(','), row);
  for (let k = 0; k < bases; k++) {
    const base = dims.map((d) => (d.kind === 'rotate' ? k % d.choices.length : d.happy));
    add(base);
    dims.forEach((d, i) => {
      if (d.kind !== 'ref') return;
      for (let v = 0; v < d.choices.length; v++) if (v !== d.happy) add(base.map((w, j) => (j === i ? v : w)));
    });
  }
  const enums = dims.map((d, i) => (d.combine ? i : -1)).filter((i) => i >= 0);
  const total = enums.reduce((n, i) => n * (dims[i]?.choices.length ?? 1), 1);
  if (enums.length > 1 && total <= MAX_COMBINATIONS) {
    for (let c = 0; c < total; c++) {
      let rest = c;
      const row = dims.map((d) => (d.kind === 'rotate' ? c % d.choices.length : d.happy));
      for (const i of enums) {
        const size = dims[i]?.choices.length ?? 1;
        row[i] = rest % size;
        rest = Math.floor(rest / size);
      }
      add(row);
    }
  }
  return [...rows.values()];
};

const toFormData = (input: Record<string, unknown>): FormData => {
  const form = new FormData();
  for (const [field, value] of Object.entries(input)) {
    if (value && typeof value === 'object' && 'bytes' in value) {
      const file = value as { filename: string; mimetype: string; bytes: Uint8Array };
      form.append(field, new Blob([new Uint8Array(file.bytes)], { type: file.mimetype }), file.filename);
    } else form.append(field, String(value));
  }
  return form;
};

/** Probe inputs for one call; throws ProbeGenerationError when a field cannot be generated or validated. */
export const planCall = (name: string, call: CallDef, refs: ProbeRefs): CallPlan => {
  const dims = dimensionsOf(name, call, refs);
  const rows = variantRows(dims);
  const variants = rows.map((row): Variant => {
    const picks = dims.map((d, k) => ({ field: d.field, choice: d.choices[row[k] ?? 0] as Choice }));
    const object = () => {
      const input: Record<string, unknown> = {};
      for (const { field, choice } of picks) {
        const value = choice.make();
        if (value !== OMIT) input[field] = value;
      }
      return input;
    };
    const sample = object();
    const parsed = call.request.safeParse(sample);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw teach(name, issue?.path.join('.') || 'body', `generated value rejected by the schema: ${issue?.message}`);
    }
    return {
      label: picks.map((p) => `${p.field}=${p.choice.label}`).join(' ') || '{}',
      build: () => (call.input === 'multipart' ? toFormData(object()) : object()),
    };
  });
  return { name, call, variants };
};

// ---------------------------------------------------------------------------------------------
// Foreign-row snapshot, driven by the schema: every table is linked to providers or accounts.

/**
 * Tables that hold no tenant data at all; any other table must link to a provider or account.
 * `login_failure` counts failed sign-ins by typed name and address, known names or not (linking it
 * to accounts would tell names apart); no call returns its rows, lists show only a listed account's lock.
 */
/**
 * Tables no tenant column links. `device_live_state` and `alarm_spell` are keyed by the device ID
 * a device connects with (the registry's, shared by every provider the device passes through);
 * only the ingest and the alarm engine write them and no call reads them. `firmware_package_chunk`
 * holds the bytes of platform-wide firmware packages (decision 0029); devices fetch them by a
 * download address bound to the device, not through a tenant's calls.
 */
export const TENANT_FREE_TABLES = new Set([
  'setting',
  'sso_nonce',
  'login_failure',
  'device_live_state',
  'alarm_spell',
  'firmware_package_chunk',
  'app_package_chunk',
  // A package's rollout: platform-wide; the devices it reaches are its upgrades (provider_id).
  'firmware_rollout',
]);

const PROVIDER_COLUMN = /(^|_)provider_id$/;
const ACCOUNT_COLUMN = /(^|_)(account_id|actor_id|created_by|uploaded_by)$/;

interface TableLinks {
  table: PgTable;
  name: string;
  primaryKey: string[];
  providerColumns: PgColumn[];
  accountColumns: PgColumn[];
  /**
   * Links through a parent row that carries the provider (emergency_contact → resident,
   * resident_caregiver → resident and caregiver): a row belongs to the tenant of its parent.
   */
  parentLinks: { column: PgColumn; parent: PgTable; parentKey: PgColumn; parentProvider: PgColumn }[];
}

/** For every table of the schema, the columns that point at a provider or an account (directly or via a parent). */
export const tableLinks = (): TableLinks[] => {
  const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));
  const providerTable = getTableConfig(schema.providers).name;
  const accountTable = getTableConfig(schema.accounts).name;
  const links = tables.map((table): TableLinks => {
    const config = getTableConfig(table);
    const fkTarget = new Map<string, string>();
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      const target = getTableConfig(ref.foreignTable).name;
      for (const col of ref.columns) fkTarget.set(col.name, target);
    }
    const providerColumns = config.columns.filter(
      (c) =>
        fkTarget.get(c.name) === providerTable ||
        PROVIDER_COLUMN.test(c.name) ||
        (config.name === providerTable && c.name === 'id'),
    );
    const accountColumns = config.columns.filter(
      (c) =>
        fkTarget.get(c.name) === accountTable ||
        ACCOUNT_COLUMN.test(c.name) ||
        (config.name === accountTable && c.name === 'id'),
    );
    const primaryKey = [
      ...config.columns.filter((c) => c.primary).map((c) => c.name),
      ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)),
    ];
    return { table, name: config.name, primaryKey, providerColumns, accountColumns, parentLinks: [] };
  });
  const direct = new Map(links.map((l) => [l.table, l]));
  for (const link of links) {
    if (link.name === providerTable || link.name === accountTable) continue;
    for (const fk of getTableConfig(link.table).foreignKeys) {
      const ref = fk.reference();
      const parent = direct.get(ref.foreignTable);
      const [column] = ref.columns;
      const [parentKey] = ref.foreignColumns;
      const parentProvider = parent?.providerColumns.find((c) => PROVIDER_COLUMN.test(c.name));
      if (!parent || parent === link || !column || !parentKey || !parentProvider || ref.columns.length !== 1) continue;
      link.parentLinks.push({ column, parent: parent.table, parentKey, parentProvider });
    }
  }
  return links;
};

/** Per table, each row's JSON by its primary key. */
export type Snapshot = Map<string, Map<string, string>>;

/**
 * Every row that belongs to, or points at, the given providers or accounts: the provider and
 * account rows themselves, their data permissions, sessions, audit entries, files, and any
 * table added later that carries a provider_id or account_id. One round trip.
 */
export const snapshotRows = async (
  db: Executor,
  target: { providerIds: readonly number[]; accountIds: readonly number[] },
): Promise<Snapshot> => {
  const links = tableLinks().filter((l) => !TENANT_FREE_TABLES.has(l.name));
  const parts = links.map((link) => {
    const conditions: SQL[] = [
      ...link.providerColumns.map((c) => inArray(c, [...target.providerIds])),
      ...link.accountColumns.map((c) => inArray(c, [...target.accountIds])),
      ...link.parentLinks.map(
        (p) =>
          sql`${p.column} in (select ${p.parentKey} from ${p.parent} where ${inArray(p.parentProvider, [...target.providerIds])})`,
      ),
    ];
    if (!conditions.length) throw new Error(`tenancy snapshot: table ${link.name} has no provider or account link`);
    return sql`select ${link.name}::text as t, row_to_json(${link.table})::text as r from ${link.table} where ${or(...conditions)}`;
  });
  const result = (await db.execute(sql.join(parts, sql` union all `))) as unknown as {
    rows: { t: string; r: string }[];
  };
  const out: Snapshot = new Map(links.map((l) => [l.name, new Map<string, string>()]));
  const keys = new Map(links.map((l) => [l.name, l.primaryKey]));
  for (const { t, r } of result.rows) {
    const row = JSON.parse(r) as Record<string, unknown>;
    const pk = keys.get(t) ?? [];
    out.get(t)?.set(pk.length ? JSON.stringify(pk.map((k) => row[k])) : r, r);
  }
  return out;
};

/**
 * The foreign rows, re-read only when something was written. A statement-level trigger on every
 * snapshotted table draws from a sequence (no row lock, so no transaction waits on another, and a
 * rolled-back write still counts): while the sequence stands still no tenant row can have changed,
 * and most probes are reads. Ten thousand snapshots per database took half the matrix's time.
 */
export interface WriteWatch {
  /** The foreign rows' changes since the last call (or since the watch began). */
  changes(): Promise<string[]>;
  /** How many times the rows were re-read: a watch that never skips, or never reads, is broken. */
  readonly snapshots: number;
}

const WRITE_SEQUENCE = 'tenancy_probe_writes';

const writeCount = async (db: Executor): Promise<string> => {
  const result = (await db.execute(
    sql.raw(`select last_value::text as n, is_called from ${WRITE_SEQUENCE}`),
  )) as unknown as {
    rows: { n: string; is_called: boolean }[];
  };
  const [row] = result.rows;
  if (!row) throw new Error('tenancy write watch: the sequence has no row');
  return row.is_called ? row.n : '0';
};

export const watchWrites = async (
  db: Executor,
  target: { providerIds: readonly number[]; accountIds: readonly number[] },
): Promise<WriteWatch> => {
  // One statement per call: the extended protocol (pg and PGlite alike) takes no more.
  await db.execute(sql.raw(`create sequence if not exists ${WRITE_SEQUENCE}`));
  await db.execute(
    sql.raw(`create or replace function ${WRITE_SEQUENCE}_count() returns trigger language plpgsql as $$
      begin perform nextval('${WRITE_SEQUENCE}'); return null; end $$`),
  );
  for (const link of tableLinks().filter((l) => !TENANT_FREE_TABLES.has(l.name))) {
    await db.execute(sql.raw(`drop trigger if exists ${WRITE_SEQUENCE} on "${link.name}"`));
    await db.execute(
      sql.raw(`create trigger ${WRITE_SEQUENCE} after insert or update or delete or truncate on "${link.name}"
        for each statement execute function ${WRITE_SEQUENCE}_count()`),
    );
  }
  let seen = await writeCount(db);
  let baseline = await snapshotRows(db, target);
  let snapshots = 1;
  return {
    get snapshots() {
      return snapshots;
    },
    async changes() {
      const now = await writeCount(db);
      if (now === seen) return [];
      // Counted before reading: a write landing during the read shows again next time.
      seen = now;
      const after = await snapshotRows(db, target);
      snapshots++;
      const diff = diffSnapshots(baseline, after);
      baseline = after;
      return diff;
    },
  };
};

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** Human-readable differences between two snapshots: changed columns, added and removed rows. */
export const diffSnapshots = (before: Snapshot, after: Snapshot): string[] => {
  const out: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name) ?? new Map<string, string>();
    const b = after.get(name) ?? new Map<string, string>();
    for (const [key, row] of a) {
      const next = b.get(key);
      if (next === undefined) out.push(`${name} ${key} removed: ${short(JSON.parse(row))}`);
      else if (next !== row) {
        const was = JSON.parse(row) as Record<string, unknown>;
        const now = JSON.parse(next) as Record<string, unknown>;
        const changed = Object.keys({ ...was, ...now }).filter(
          (k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]),
        );
        out.push(
          `${name} ${key} changed: ${changed.map((k) => `${k} ${short(was[k])} → ${short(now[k])}`).join(', ')}`,
        );
      }
    }
    for (const [key, row] of b) if (!a.has(key)) out.push(`${name} ${key} added: ${short(JSON.parse(row))}`);
  }
  return out;
};

/** The first needle (case-insensitive) found in a response body, with some context; null when clean. */
export const findLeak = (body: string, needles: readonly string[]): string | null => {
  const lower = body.toLowerCase();
  for (const needle of needles) {
    const at = lower.indexOf(needle.toLowerCase());
    if (at >= 0) return `"${needle}" in …${body.slice(Math.max(0, at - 80), at + needle.length + 40)}…`;
  }
  return null;
};
