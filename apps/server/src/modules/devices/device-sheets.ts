import {
  DEVICE_COMM_MODES,
  DEVICE_SECRET_MAX,
  DEVICE_TYPES,
  LANGUAGES,
  translate,
  type DeviceKind,
  type Language,
} from '@vigil/contract';
import { text } from '../spreadsheet/cells.ts';
import { defineSheet, type ColumnNote } from '../spreadsheet/sheet-import.ts';
import type { CellParser } from '../spreadsheet/table-parser.ts';

/** The device spreadsheets: devices of a provider, the registry, gateway hosts and infrared sub-devices. */

/** A catalogue type by its model (case-insensitive) or its code, limited to some kinds. */
const deviceType =
  (kinds?: readonly DeviceKind[]): CellParser<number> =>
  (value) => {
    const v = value.trim().toLowerCase();
    const type = DEVICE_TYPES.find((t) => t.model.toLowerCase() === v || String(t.code) === v);
    if (!type || (kinds && !kinds.includes(type.kind))) return { ok: false, reason: 'import.cell.device' };
    return { ok: true, value: type.code };
  };

const typeNote = (kinds?: readonly DeviceKind[]): ColumnNote => ({
  key: 'sheet.note.deviceType',
  params: () => {
    const types = DEVICE_TYPES.filter((t) => !kinds || kinds.includes(t.kind));
    return { example: types.map((t) => `${t.model} / ${t.code}`).join(', ') };
  },
});

const squash = (text: string) => text.replace(/[\s_-]+/g, '').toLowerCase();
/** Every word a communication mode may be written as: its code and its label on the screens in any language. */
const COMM_MODE_WORDS = new Map<string, (typeof DEVICE_COMM_MODES)[number]>(
  DEVICE_COMM_MODES.flatMap((mode) => [
    [squash(mode), mode] as const,
    ...LANGUAGES.map((lang) => [squash(translate(lang, `commMode.${mode}`)), mode] as const),
  ]),
);

/** A communication mode as a code (wifi, 4g …) or as the screens show it ("Wi-Fi", "WLAN", "以太网"). */
const commMode: CellParser<string> = (value, lang) => {
  const mode = COMM_MODE_WORDS.get(squash(value));
  return mode
    ? { ok: true, value: mode }
    : {
        ok: false,
        reason: 'import.cell.oneOf',
        params: { options: DEVICE_COMM_MODES.map((m) => translate(lang, `commMode.${m}`)).join(', ') },
      };
};
const commModeNote: ColumnNote = {
  key: 'sheet.note.oneOf',
  params: (lang) => ({ options: DEVICE_COMM_MODES.map((m) => translate(lang, `commMode.${m}`)).join(', ') }),
};

const deviceId = text(64);
const name = text(64);
const remark = text(200);

export const DEVICE_SHEET = defineSheet({
  name: 'sheet.name.devices',
  columns: {
    deviceId: { header: 'sheet.col.deviceId', required: true, parse: deviceId },
    deviceType: { header: 'sheet.col.deviceType', required: true, parse: deviceType() },
    name: { header: 'sheet.col.deviceName', required: false, parse: name },
    commMode: { header: 'sheet.col.commMode', required: false, parse: commMode },
    remark: { header: 'sheet.col.remark', required: false, parse: remark },
    // Its place (decision 0046): a path of names, or who wears it; sleep monitors and radars take neither.
    place: { header: 'sheet.col.place', required: false, parse: text(200) },
    wornBy: { header: 'sheet.col.wornBy', required: false, parse: text(64) },
  },
  notes: { deviceType: typeNote(), commMode: commModeNote },
});

export const STOCK_SHEET = defineSheet({
  name: 'sheet.name.stock',
  columns: {
    deviceId: { header: 'sheet.col.deviceId', required: true, parse: deviceId },
    deviceType: { header: 'sheet.col.deviceType', required: true, parse: deviceType() },
    cipherId: { header: 'sheet.col.cipherId', required: false, parse: text(128) },
    imei: { header: 'sheet.col.imei', required: false, parse: text(32) },
    imei4g: { header: 'sheet.col.imei4g', required: false, parse: text(32) },
    iccid: { header: 'sheet.col.iccid', required: false, parse: text(32) },
    model: { header: 'sheet.col.model', required: false, parse: text(32) },
    firmwareType: { header: 'sheet.col.firmwareType', required: false, parse: text(32) },
    batch: { header: 'sheet.col.batch', required: false, parse: text(64) },
    // Checked by the registry's row rules (device.secretFormat); stored only as a hash, never exported.
    secret: { header: 'sheet.col.secret', required: false, parse: text(DEVICE_SECRET_MAX) },
  },
  notes: { deviceType: typeNote(), secret: { key: 'sheet.note.secret' } },
});

export const HOST_SHEET = defineSheet({
  name: 'sheet.name.hosts',
  columns: {
    deviceId: { header: 'sheet.col.hostId', required: true, parse: deviceId },
    name: { header: 'sheet.col.deviceName', required: false, parse: name },
    remark: { header: 'sheet.col.remark', required: false, parse: remark },
  },
  // The host's type is implied: a registry entry of another type is a problem of its ID.
  fields: { deviceType: 'deviceId' },
});

const INFRARED: readonly DeviceKind[] = ['infrared_motion'];
export const INFRARED_SHEET = defineSheet({
  name: 'sheet.name.infrared',
  columns: {
    hostDeviceId: { header: 'sheet.col.hostId', required: true, parse: deviceId },
    deviceId: { header: 'sheet.col.deviceId', required: true, parse: deviceId },
    deviceType: { header: 'sheet.col.deviceType', required: true, parse: deviceType(INFRARED) },
    name: { header: 'sheet.col.deviceName', required: false, parse: name },
  },
  notes: { hostDeviceId: { key: 'sheet.note.hostOfProvider' }, deviceType: typeNote(INFRARED) },
});

/** The model of a type code, as exports write it (imports read model or code). */
export const modelOf = (code: number): string => DEVICE_TYPES.find((t) => t.code === code)?.model ?? String(code);

export const onlineLabel = (lang: Language, online: boolean): string =>
  translate(lang, online ? 'sheet.online' : 'sheet.offline');
