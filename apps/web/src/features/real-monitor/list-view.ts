import {
  LIVE_STATES,
  type EndpointRequest,
  type EndpointResult,
  type getAreaWithRoomList,
  type LiveStateFilter,
  type monitorUserList,
} from '@vigil/contract/browser';

/** What the resident list shows: its filters and page, kept in the address (back from a resident returns to it). */
export interface MonitorListView {
  keyWord?: string;
  state?: LiveStateFilter;
  /** An area/building or a floor/unit. */
  areaId?: number;
  pageNum: number;
  pageSize: number;
}

export const LIST_PAGE_SIZES = [20, 50, 100, 200];
export const DEFAULT_LIST_PAGE_SIZE = 50;
const KEYWORD_MAX = 64;

const positiveInt = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : undefined;
};

/** The view an address asks for; anything unreadable is left out rather than sent. */
export const readListView = (params: URLSearchParams): MonitorListView => {
  const keyWord = params.get('keyWord')?.trim().slice(0, KEYWORD_MAX) || undefined;
  const state = LIVE_STATES.find((s) => s === params.get('state'));
  const areaId = positiveInt(params.get('areaId'));
  const pageSize = positiveInt(params.get('pageSize'));
  return {
    ...(keyWord === undefined ? {} : { keyWord }),
    ...(state === undefined ? {} : { state }),
    ...(areaId === undefined ? {} : { areaId }),
    pageNum: positiveInt(params.get('pageNum')) ?? 1,
    pageSize: pageSize !== undefined && LIST_PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_LIST_PAGE_SIZE,
  };
};

/** The address of a view; defaults are left out, so the unfiltered first page is the bare path. */
export const writeListView = (view: MonitorListView): URLSearchParams => {
  const params = new URLSearchParams();
  if (view.keyWord) params.set('keyWord', view.keyWord);
  if (view.state) params.set('state', view.state);
  if (view.areaId !== undefined) params.set('areaId', String(view.areaId));
  if (view.pageNum !== 1) params.set('pageNum', String(view.pageNum));
  if (view.pageSize !== DEFAULT_LIST_PAGE_SIZE) params.set('pageSize', String(view.pageSize));
  return params;
};

/** The monitorUserList request of a view. */
export const listRequest = (view: MonitorListView): EndpointRequest<typeof monitorUserList> => ({ ...view });

export type AreaTree = EndpointResult<typeof getAreaWithRoomList>;

/** A cascader option: an area/building with its floors/units. */
export interface AreaOption {
  value: number;
  label: string;
  children?: AreaOption[];
}

/** Area → floor, for the list's place filter (the list narrows by area or floor). */
export const areaOptions = (tree: AreaTree): AreaOption[] =>
  tree.map((area) => ({
    value: area.id,
    label: area.name,
    children: area.floors.map((floor) => ({ value: floor.id, label: floor.name })),
  }));

/** The cascader path of an area or floor id (empty when it is not in the tree). */
export const areaPath = (tree: AreaTree, areaId: number | undefined): number[] => {
  if (areaId === undefined) return [];
  for (const area of tree) {
    if (area.id === areaId) return [area.id];
    const floor = area.floors.find((f) => f.id === areaId);
    if (floor) return [area.id, floor.id];
  }
  return [];
};
