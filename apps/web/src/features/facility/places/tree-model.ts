import type { AreaNode, PlaceSelection } from '../facility-model.ts';

/** Tree node key of a selection: `area:1`, `floor:2`, `room:3`. */
export const placeKey = (selection: PlaceSelection): string =>
  selection.level === 'room'
    ? `room:${selection.room.id}`
    : selection.level === 'floor'
      ? `floor:${selection.floor.id}`
      : `area:${selection.area.id}`;

/**
 * Every selection the tree offers, by node key. The page keeps only the key, so a refreshed tree
 * (new counts, a rename) gives a fresh selection and a deleted node none.
 */
export const selectionsOf = (areas: readonly AreaNode[]): Map<string, PlaceSelection> => {
  const all = new Map<string, PlaceSelection>();
  for (const area of areas) {
    all.set(`area:${area.id}`, { level: 'area', area });
    for (const floor of area.floors) {
      all.set(`floor:${floor.id}`, { level: 'floor', area, floor });
      for (const room of floor.rooms) all.set(`room:${room.id}`, { level: 'room', area, floor, room });
    }
  }
  return all;
};
