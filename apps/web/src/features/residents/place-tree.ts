import type { EndpointResult, getAreaWithRoomList } from '@vigil/contract/browser';
import type { ResidentFilters } from './list-params.ts';

export type AreaTree = EndpointResult<typeof getAreaWithRoomList>;

/** A cascader option: an area/building, a floor/unit or a room. */
export interface PlaceOption {
  value: number;
  label: string;
  children?: PlaceOption[];
}

/** Area → floor → room, for the list's place filter. */
export const placeOptions = (tree: AreaTree): PlaceOption[] =>
  tree.map((area) => ({
    value: area.id,
    label: area.name,
    children: area.floors.map((floor) => ({
      value: floor.id,
      label: floor.name,
      children: floor.rooms.map((room) => ({ value: room.id, label: room.name })),
    })),
  }));

/** The filter a chosen path means: a room, else the deepest area or floor. */
export const placeFilter = (path: readonly number[] | undefined): Pick<ResidentFilters, 'areaId' | 'roomId'> => {
  if (!path || path.length === 0) return { areaId: undefined, roomId: undefined };
  if (path.length >= 3) return { areaId: undefined, roomId: path[2] };
  return { areaId: path[path.length - 1], roomId: undefined };
};

/** The cascader path of a filter, found in the tree (empty when the place is not there any more). */
export const placePath = (tree: AreaTree, filters: Pick<ResidentFilters, 'areaId' | 'roomId'>): number[] => {
  for (const area of tree) {
    if (filters.roomId === undefined && filters.areaId === area.id) return [area.id];
    for (const floor of area.floors) {
      if (filters.roomId === undefined && filters.areaId === floor.id) return [area.id, floor.id];
      for (const room of floor.rooms) {
        if (filters.roomId === room.id) return [area.id, floor.id, room.id];
      }
    }
  }
  return [];
};
