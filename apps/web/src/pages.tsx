import { CONSOLE_ROUTES } from '@vigil/contract/browser';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/** Screens built so far, each its own chunk; every other menu entry shows a placeholder. */
const BUILT: Record<string, Page> = {
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

// Lazy too: its Card pulls antd's tabs and menu, which the login route must not download.
const PlaceholderPage = lazy(() => import('./features/placeholder/PlaceholderPage.tsx'));

export const pageFor = (name: string): ComponentType => BUILT[name] ?? (() => <PlaceholderPage name={name} />);

export const consolePages = CONSOLE_ROUTES.map((route) => ({ route, Page: pageFor(route.name) }));
