/**
 * What browsers import: everything the console needs at run time without zod.
 * Calls arrive as endpoints (method, path, input); their types still come from the catalogue.
 */
export * from './endpoints.generated.ts';
export * from './client.ts';
export * from './console-routes.ts';
export * from './constants.ts';
export * from './device-types.ts';
export * from './domain.ts';
export * from './alarms.ts';
export * from './socket-constants.ts';
export * from './monitor-constants.ts';
export * from './firmware-constants.ts';
export * from './roles.ts';
export * from './status.ts';
export * from './password-rules.ts';
export type * from './call.ts';
export type { CallName } from './catalogue.ts';
export type * from './envelope.ts';
export type { Account } from './calls/account.ts';
export type { LoginResult, ProviderOption, SessionInfo } from './calls/auth.ts';
export type { Provider } from './calls/provider.ts';
export type { PlatformInfo } from './calls/system.ts';
export type { FailureData, FailureKey, RowProblem } from './failures.ts';
export type { BunkConflict, NameProblem } from './calls/facility.ts';
export type { DeviceRowProblem } from './calls/devices.ts';
export type { ResidentRow } from './calls/residents.ts';
export type { AlarmRecord, AlarmTimelineStep, AlertLevelSettings } from './calls/alarms.ts';
export type { BedAlarmRules, BedReceivers } from './calls/alarms.ts';
export type { LiveDevice, LiveResident, LiveVitals, VitalLimits, VitalsMinute } from './calls/monitor.ts';
export type { AlarmNote, RelieveNotice, SocketClientFrame, SocketServerFrame } from './socket.ts';
export type {
  DailyReport,
  DailyReportData,
  DailyReportRow,
  MonthReport,
  NightFigures,
  NightSummary,
  ReportMinute,
  ReportResident,
  ReportUser,
  SleepSetting,
} from './calls/reports.ts';
export type { Firmware, GreyDevice, Rollout, UpgradeCounts, UpgradeRow } from './calls/firmware.ts';
export * from './app-version-constants.ts';
export type { AppPackage, AppVersion, H5Version, LastVersion, ReleaseFile } from './calls/app-versions.ts';
