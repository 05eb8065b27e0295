import { formatDateTime } from '../../shared/ui/datetime.ts';
import type { DeviceKind } from '@vigil/contract/browser';
import type { TFunction } from 'i18next';

/** "M8701W · Sleep monitor": the model people read on the label and what it is. */
export const typeLabel = (t: TFunction, type: { model: string; kind: DeviceKind }): string =>
  `${type.model} · ${t(`kind.${type.kind}`)}`;

/** Select options of device types. */
export const typeOptions = (t: TFunction, types: readonly { code: number; model: string; kind: DeviceKind }[]) =>
  types.map((type) => ({ value: type.code, label: typeLabel(t, type) }));

/** An ISO time as local date and minute, or a dash. */
export const shortTime = (iso: string | null | undefined): string => formatDateTime(iso, '—');

/** Area / floor / room / bed of a device's bed, skipping what is unknown. */
export const placeOf = (row: {
  areaName: string | null;
  floorName: string | null;
  roomName: string | null;
  bunkName: string | null;
}): string | null => {
  const parts = [row.areaName, row.floorName, row.roomName, row.bunkName].filter(Boolean);
  return parts.length ? parts.join(' / ') : null;
};
