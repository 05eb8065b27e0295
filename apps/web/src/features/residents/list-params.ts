import {
  RESIDENT_LIMITS,
  RESIDENT_STATES,
  type Gender,
  type ResidentListQuery,
  type ResidentState,
} from './resident-model.ts';

/** What the resident list is narrowed to; every field travels to residentList (and the export) as is. */
export interface ResidentFilters {
  keyWord?: string;
  state?: ResidentState;
  gender?: Gender;
  priority?: boolean;
  /** An area/building or a floor/unit. */
  areaId?: number;
  roomId?: number;
  ageMin?: number;
  ageMax?: number;
}

export interface ListView {
  filters: ResidentFilters;
  pageNum: number;
  pageSize: number;
}

export const DEFAULT_PAGE_SIZE = 10;
const PAGE_SIZES = [10, 20, 50, 100];

const positiveInt = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : undefined;
};
const age = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,3}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= RESIDENT_LIMITS.maxAgeYears ? n : undefined;
};

/** Drops undefined fields so a request body carries only the filters in force. */
export const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * The list's view lives in the address (filters and page), so the edit page can send the user
 * back to exactly the list they left, and opening the list from the menu or a tab (the bare
 * path) starts on page 1 with no filters: the spec's "resident list resets to 1 on leaving".
 * Anything unreadable in the address is ignored rather than sent.
 */
export const readListView = (params: URLSearchParams): ListView => {
  const state = params.get('state');
  const gender = params.get('gender');
  const priority = params.get('priority');
  let ageMin = age(params.get('ageMin'));
  let ageMax = age(params.get('ageMax'));
  // The server refuses a reversed range; a hand-edited address must not make the list fail.
  if (ageMin !== undefined && ageMax !== undefined && ageMin > ageMax) ageMin = ageMax = undefined;
  const keyWord = params.get('keyWord')?.trim().slice(0, RESIDENT_LIMITS.keywordMaxLength);
  const pageSize = positiveInt(params.get('pageSize'));
  return {
    filters: compact({
      keyWord: keyWord || undefined,
      state: RESIDENT_STATES.find((s) => s === state),
      gender: gender === '0' ? 0 : gender === '1' ? 1 : undefined,
      priority: priority === 'true' ? true : priority === 'false' ? false : undefined,
      areaId: positiveInt(params.get('areaId')),
      roomId: positiveInt(params.get('roomId')),
      ageMin,
      ageMax,
    } satisfies ResidentFilters),
    pageNum: positiveInt(params.get('pageNum')) ?? 1,
    pageSize: pageSize !== undefined && PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
};

/** The address form of a view; defaults are left out so the first page of an unfiltered list is the bare path. */
export const writeListView = (view: ListView): URLSearchParams => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(view.filters)) {
    if (value !== undefined) params.set(key, String(value));
  }
  if (view.pageNum !== 1) params.set('pageNum', String(view.pageNum));
  if (view.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(view.pageSize));
  return params;
};

/** The residentList request of a view. */
export const listRequest = (view: ListView): ResidentListQuery => ({
  pageNum: view.pageNum,
  pageSize: view.pageSize,
  ...view.filters,
});

export { PAGE_SIZES };
