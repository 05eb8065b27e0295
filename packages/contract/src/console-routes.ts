import type { DeviceGroup } from './domain.ts';
import type { Role } from './roles.ts';

/**
 * The console's menu entries (spec document 1, section 2). The server derives each
 * role's menuList from this table and the web console builds its routes from it,
 * so the two cannot disagree.
 */
export interface ConsoleRoute {
  /** Menu name sent in menuList. */
  name: string;
  path: string;
  roles: readonly Role[];
  hidden?: boolean;
  /**
   * A device screen shown only when the session works with devices of one of these groups: the
   * session info's `deviceGroups`, which the server decides (decision 0033).
   */
  deviceGroups?: readonly DeviceGroup[];
  /**
   * A screen not built yet: no console route, menu entry, shortcut, button or landing page leads
   * to it (issue 29, point 11). Kept in the table with its roles and rules so that building it is
   * removing this flag.
   */
  planned?: true;
  /** Class 1 providers need a non-empty provider list to open it. */
  needsProviderList?: boolean;
  /** Class 1 providers also need a chosen provider. */
  needsChosenProvider?: boolean;
}

const CARE: readonly Role[] = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'];
const CARE_AND_STAFF: readonly Role[] = [...CARE, 'SOCIAL_WORKER', 'CARER'];
const ADMINS: readonly Role[] = ['SUPER_ROLE', 'SENIOR_ROLE'];
const DEVICES: readonly Role[] = [...ADMINS, 'ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'];

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  {
    name: 'statistics',
    path: '/statistics',
    roles: ['ONE_ROLE', 'TWO_ROLE', 'GOVERNMENT'],
    hidden: true,
    planned: true,
  },
  { name: 'RealTime', path: '/realMonitor/index', roles: CARE_AND_STAFF, needsProviderList: true },
  { name: 'residentList', path: '/realMonitor/residentList', roles: CARE_AND_STAFF, needsProviderList: true },
  { name: 'resident', path: '/realMonitor/resident', roles: CARE_AND_STAFF, hidden: true, needsProviderList: true },
  { name: 'alarm', path: '/alarm-log/alarmIndex', roles: CARE_AND_STAFF, needsProviderList: true },
  { name: 'remindsetting', path: '/alarm-log/remindsetting', roles: CARE, needsProviderList: true },
  { name: 'SleepReport', path: '/sleep-report/reportList', roles: CARE_AND_STAFF, needsProviderList: true },
  {
    name: 'dailyReportList',
    path: '/sleep-report/index',
    roles: CARE_AND_STAFF,
    hidden: true,
    needsProviderList: true,
  },
  {
    name: 'dailyReportDetails',
    path: '/sleep-report/dailyDetails/reportDetails',
    roles: CARE_AND_STAFF,
    hidden: true,
    needsProviderList: true,
  },
  {
    name: 'monthReport',
    path: '/sleep-report/monthDetails',
    roles: CARE_AND_STAFF,
    hidden: true,
    needsProviderList: true,
  },
  { name: 'PeopleManage', path: '/people-manage/userManage', roles: CARE, needsProviderList: true },
  {
    name: 'addAndEditUser',
    path: '/people-manage/addAndEdit/addAndEditUser',
    roles: CARE,
    hidden: true,
    needsProviderList: true,
  },
  { name: 'BunkManage', path: '/BunkManage/index', roles: CARE, needsProviderList: true },
  {
    name: 'settingAlarm',
    path: '/BunkManage/alarmSetting/:userId',
    roles: CARE,
    hidden: true,
    needsProviderList: true,
  },
  { name: 'nurseManage', path: '/nurse-manage/nurseManage', roles: CARE, needsProviderList: true },
  {
    name: 'addAndEditNurse',
    path: '/nurse-manage/addAndEditNurse',
    roles: CARE,
    hidden: true,
    needsProviderList: true,
  },
  { name: 'platSet', path: '/settings/platSet', roles: ['ONE_ROLE', 'TWO_ROLE'] },
  {
    name: 'statisticsMult',
    path: '/settings/statisticsMult',
    roles: ['ONE_ROLE', 'TWO_ROLE'],
    needsProviderList: true,
    needsChosenProvider: true,
    planned: true,
  },
  { name: 'deviceManage', path: '/deviceManage/deviceManage', roles: DEVICES },
  { name: 'ed719', path: '/deviceManage/ed719', roles: DEVICES, deviceGroups: ['fall'] },
  {
    name: 'safeDeviceManage',
    path: '/deviceManage/safeDeviceManage',
    roles: DEVICES,
    deviceGroups: ['security', 'wearable'],
  },
  { name: 'hostDevice', path: '/deviceManage/hostDevice', roles: DEVICES, deviceGroups: ['gateway'] },
  { name: 'historyData', path: '/deviceManage/historyData', roles: ADMINS },
  { name: 'hardSoftUpload', path: '/deviceManage/hardSoftUpload', roles: ADMINS },
  {
    name: 'accountmanager',
    path: '/permission/accountmanager',
    roles: ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE', 'BUSINESS_ROLE'],
  },
  {
    name: 'providermanager',
    path: '/permission/providermanager',
    roles: ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'BUSINESS_ROLE'],
  },
  { name: 'appVersionDeployment', path: '/appReleaseManage/appVersionDeployment', roles: ADMINS },
  { name: 'versionDeployment', path: '/appReleaseManage/versionDeployment', roles: ADMINS },
];

/** Whether a device screen shows for a session working with devices of `deviceGroups` (other screens always do). */
export const showsDeviceScreen = (route: ConsoleRoute, deviceGroups: readonly DeviceGroup[]): boolean =>
  !route.deviceGroups || route.deviceGroups.some((group) => deviceGroups.includes(group));

/** Menu names a role may open, given the device groups its session works with; planned screens are none. */
export const menuListFor = (role: Role, deviceGroups: readonly DeviceGroup[]): string[] =>
  CONSOLE_ROUTES.filter((r) => r.roles.includes(role) && !r.planned && showsDeviceScreen(r, deviceGroups)).map(
    (r) => r.name,
  );

/** Where a role lands while its start page is a planned screen (a government account until statistics is built). */
export const NO_SCREEN_PATH = '/noPermission';

/** The spec's start page of a role (spec document 1, section 6). */
const startPathOf = (role: Role, hasAvailableProvider: boolean): string => {
  switch (role) {
    case 'SENIOR_ROLE':
      return '/deviceManage/deviceManage';
    case 'SUPER_ROLE':
      return '/permission/providermanager';
    case 'ONE_ROLE':
      return hasAvailableProvider ? '/realMonitor/index' : '/permission/providermanager';
    case 'GOVERNMENT':
      return '/statistics';
    case 'BUSINESS_ROLE':
      return '/permission/accountmanager';
    default:
      return '/realMonitor/index';
  }
};

/**
 * The page a role lands on after login: its start page, unless that screen is planned.
 * `hasAvailableProvider`: a class 1 provider with at least one enabled subordinate provider.
 */
export const landingPathFor = (role: Role, hasAvailableProvider: boolean): string => {
  const path = startPathOf(role, hasAvailableProvider);
  return CONSOLE_ROUTES.some((r) => r.path === path && r.planned) ? NO_SCREEN_PATH : path;
};
