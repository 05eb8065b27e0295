import type { AreaNode, FloorNode, RoomNode } from '../facility-model.ts';

/** What the user asked to do with the facility tree; each opens one dialog or confirmation. */
export type PlaceAction =
  | { kind: 'addArea' }
  | { kind: 'addFloor'; area: AreaNode }
  | { kind: 'editArea'; area: AreaNode }
  | { kind: 'editFloor'; area: AreaNode; floor: FloorNode }
  | { kind: 'addRooms'; area: AreaNode; floor: FloorNode }
  | { kind: 'editRoom'; area: AreaNode; floor: FloorNode; room: RoomNode }
  | { kind: 'addBeds'; area: AreaNode; floor: FloorNode; room: RoomNode }
  | { kind: 'deleteArea'; area: AreaNode }
  | { kind: 'deleteFloor'; area: AreaNode; floor: FloorNode }
  | { kind: 'deleteRoom'; area: AreaNode; floor: FloorNode; room: RoomNode };

export type PlaceDialog = Exclude<PlaceAction, { kind: 'deleteArea' | 'deleteFloor' | 'deleteRoom' }>;
