import type { facilityCalls } from '@vigil/contract';
import { callerOf, type CallContext } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { FacilityViewService } from './facility-view.service.ts';
import type { Actor, OccupancyService } from './occupancy.service.ts';
import type { PlaceService } from './place.service.ts';

type FacilityCalls = keyof typeof facilityCalls;

const actorOf = (ctx: CallContext): Actor => ({ caller: callerOf(ctx), ip: ctx.ip, lang: ctx.lang });
const paged = <T>(q: { pageNum: number; pageSize: number }, page: { rows: T[]; total: number }) => ({
  rows: page.rows,
  total: page.total,
  pageNum: q.pageNum,
  pageSize: q.pageSize,
});

export const facilityHandlers = (
  places: PlaceService,
  view: FacilityViewService,
  occupancy: OccupancyService,
): Pick<Handlers, FacilityCalls> => ({
  getAreaList: async (input, ctx) => paged(input, await view.areaList(callerOf(ctx), input)),
  insertArea: (input, ctx) => places.createArea(actorOf(ctx), input),
  async updateArea(input, ctx) {
    await places.updateArea(actorOf(ctx), input);
    return null;
  },
  getAreaWithRoomList: (input, ctx) => view.tree(callerOf(ctx), input.providerId),
  getRoomListByAreaId: (input, ctx) => view.roomsOfArea(callerOf(ctx), input.areaId),
  async deleteAreaById(input, ctx) {
    await places.deleteArea(actorOf(ctx), input.id);
    return null;
  },
  getRoomList: async (input, ctx) => paged(input, await view.roomList(callerOf(ctx), input)),
  insertRoom: (input, ctx) => places.createRooms(actorOf(ctx), input),
  async updateRoom(input, ctx) {
    await places.updateRoom(actorOf(ctx), input);
    return null;
  },
  async deleteRoomById(input, ctx) {
    await places.deleteRoom(actorOf(ctx), input.id);
    return null;
  },
  getBunkListByRoomId: (input, ctx) => view.bedsOfRoom(callerOf(ctx), input.roomId),
  batchAddBunk: (input, ctx) => places.createBeds(actorOf(ctx), input),
  getAdminBunkList: async (input, ctx) => paged(input, await view.bedList(callerOf(ctx), input)),
  getUserBunkList: async (input, ctx) => paged(input, await view.bedList(callerOf(ctx), input)),
  getBunkConfiguration: (input, ctx) => view.configuration(callerOf(ctx), input),
  bunkSummary: (input, ctx) => view.summary(callerOf(ctx), input.providerId),
  async deleteBunk(input, ctx) {
    await places.deleteBed(actorOf(ctx), input.id);
    return null;
  },
  getBunkRoomList: (input, ctx) => view.allRooms(callerOf(ctx), input),
  getBunksByRoomName: (input, ctx) => view.bedsByRoomName(callerOf(ctx), input),
  bunkList: async (input, ctx) => paged(input, await view.bedList(callerOf(ctx), input)),
  updateBunk: (input, ctx) =>
    places.updateBed(actorOf(ctx), {
      id: input.id,
      name: input.name,
      mattress: input.mattress,
      remark: input.remark,
      deviceCode: input.deviceId,
      residentId: input.userId,
      confirm: input.confirm,
    }),
  async bunkCheckOut(input, ctx) {
    await occupancy.checkOut(actorOf(ctx), input.userId);
    return null;
  },
  async userCheckIn(input, ctx) {
    const { bedId } = await occupancy.checkIn(actorOf(ctx), {
      residentId: input.userId,
      bedId: input.bunkId,
      confirm: input.confirm,
    });
    return view.bed(bedId);
  },
});
