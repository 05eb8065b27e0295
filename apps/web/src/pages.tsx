import { CONSOLE_ROUTES, type ConsoleRoute } from '@vigil/contract/browser';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/**
 * The screens, each its own chunk, by route name. A route the contract marks `planned` has none
 * and no console route: nothing links to a screen that is not built (issue 29, point 11).
 */
export const BUILT: Readonly<Record<string, Page>> = {
  providermanager: lazy(() => import('./features/providers/ProviderManagePage.tsx')),
  accountmanager: lazy(() => import('./features/accounts/AccountManagePage.tsx')),
  platSet: lazy(() => import('./features/settings/PlatSetPage.tsx')),
  BunkManage: lazy(() => import('./features/facility/BunkManagePage.tsx')),
  settingAlarm: lazy(() => import('./features/bed-alarm/BedAlarmSettingPage.tsx')),
  PeopleManage: lazy(() => import('./features/residents/ResidentManagePage.tsx')),
  addAndEditUser: lazy(() => import('./features/residents/ResidentEditPage.tsx')),
  deviceManage: lazy(() => import('./features/devices/SleepDevicePage.tsx')),
  ed719: lazy(() => import('./features/devices/FallDevicePage.tsx')),
  safeDeviceManage: lazy(() => import('./features/devices/SecurityDevicePage.tsx')),
  hostDevice: lazy(() => import('./features/devices/GatewayHostPage.tsx')),
  historyData: lazy(() => import('./features/history-data/HistoryDataPage.tsx')),
  RealTime: lazy(() => import('./features/real-monitor/RealMonitorPage.tsx')),
  residentList: lazy(() => import('./features/real-monitor/ResidentListPage.tsx')),
  resident: lazy(() => import('./features/real-monitor/ResidentLivePage.tsx')),
  nurseManage: lazy(() => import('./features/caregivers/CaregiverManagePage.tsx')),
  addAndEditNurse: lazy(() => import('./features/caregivers/CaregiverEditPage.tsx')),
  alarm: lazy(() => import('./features/alarm-log/AlarmLogPage.tsx')),
  remindsetting: lazy(() => import('./features/remind-setting/RemindSettingPage.tsx')),
  SleepReport: lazy(() => import('./features/sleep-report/ReportListPage.tsx')),
  dailyReportList: lazy(() => import('./features/sleep-report/DailyReportListPage.tsx')),
  dailyReportDetails: lazy(() => import('./features/sleep-report/DailyReportPage.tsx')),
  monthReport: lazy(() => import('./features/sleep-report/MonthReportPage.tsx')),
  appVersionDeployment: lazy(() => import('./features/app-release/AppVersionPage.tsx')),
  versionDeployment: lazy(() => import('./features/app-release/H5VersionPage.tsx')),
  hardSoftUpload: lazy(() => import('./features/firmware/FirmwarePage.tsx')),
};

/** The console's routes: every screen that is not planned, with its page (pages.test.ts checks none is missing). */
export const consolePages: { route: ConsoleRoute; Page: Page }[] = CONSOLE_ROUTES.flatMap((route) => {
  const Page = BUILT[route.name];
  return !route.planned && Page ? [{ route, Page }] : [];
});
