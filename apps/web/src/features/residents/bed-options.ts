import type { BedConfiguration } from './resident-model.ts';

export interface BedOption {
  value: number;
  label: string;
  children?: BedOption[];
}

/**
 * The bed picker's area → floor → room → bed options, for one provider (a bed of another provider
 * would be refused). Branches without a bed are left out so every path ends at a bed.
 */
export const bedOptions = (
  config: BedConfiguration,
  providerId: number,
  bedLabel: (bed: { name: string; deviceId: string | null }) => string,
): BedOption[] => {
  const options: BedOption[] = [];
  for (const area of config.areas) {
    if (area.providerId !== providerId) continue;
    const floors: BedOption[] = [];
    for (const floor of area.floors) {
      const rooms: BedOption[] = [];
      for (const room of floor.rooms) {
        const beds = room.beds.map((bed) => ({ value: bed.id, label: bedLabel(bed) }));
        if (beds.length > 0) rooms.push({ value: room.id, label: room.name, children: beds });
      }
      if (rooms.length > 0) floors.push({ value: floor.id, label: floor.name, children: rooms });
    }
    if (floors.length > 0) options.push({ value: area.id, label: area.name, children: floors });
  }
  return options;
};

/** The bed at the end of a picked path (area, floor, room, bed). */
export const bedOfPath = (path: readonly number[] | undefined): number | undefined =>
  path && path.length === 4 ? path[3] : undefined;
