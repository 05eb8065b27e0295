import type { PlaceSelection } from '../facility-model.ts';

/**
 * Why the server would refuse to delete the selected place, as a facility text key, or null.
 * The same rules as the server's (place.service deleteArea / deleteRoom), on the tree's data.
 */
export const deleteRefusal = (selection: PlaceSelection): string | null => {
  if (selection.level === 'area') return selection.area.floors.length ? 'refused.areaHasFloors' : null;
  if (selection.level === 'floor') return selection.floor.rooms.length ? 'refused.floorHasRooms' : null;
  if (selection.room.bedCount > 0) return 'refused.roomHasBeds';
  return selection.room.residentCount > 0 ? 'refused.roomHasResidents' : null;
};
