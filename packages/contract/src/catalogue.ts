import type { CallDef } from './call.ts';
import { changeProvider, insertAccount, operateAccount, queryAccountList, unlockAccount } from './calls/account.ts';
import { adminLogin, adminLogout, adminPublicKey, adminSession, adminSso, adminUpdatePassword } from './calls/auth.ts';
import {
  deleteProvider,
  getProvider,
  insertProvider,
  operateProvider,
  queryProviderList,
  restProviderPwd,
} from './calls/provider.ts';
import { alarmCalls } from './calls/alarms.ts';
import { appVersionCalls } from './calls/app-versions.ts';
import { monitorCalls } from './calls/monitor.ts';
import { caregiverCalls } from './calls/caregivers.ts';
import { deviceCalls } from './calls/devices.ts';
import { facilityCalls } from './calls/facility.ts';
import { firmwareCalls } from './calls/firmware.ts';
import { originDataCalls } from './calls/origin-data.ts';
import { reportCalls } from './calls/reports.ts';
import { residentCalls } from './calls/residents.ts';
import { spreadsheetCalls } from './calls/spreadsheets.ts';
import { getFile, getPlatformName, postPlatformName, queryAuditLog, uploadLogo } from './calls/system.ts';

/** Every call of the API, declared once. The server cannot serve a route missing here. */
export const calls = {
  adminLogin,
  adminSso,
  adminLogout,
  adminUpdatePassword,
  adminPublicKey,
  adminSession,
  queryProviderList,
  insertProvider,
  restProviderPwd,
  operateProvider,
  getProvider,
  deleteProvider,
  queryAccountList,
  insertAccount,
  operateAccount,
  changeProvider,
  unlockAccount,
  getPlatformName,
  postPlatformName,
  uploadLogo,
  getFile,
  queryAuditLog,
  ...facilityCalls,
  ...residentCalls,
  ...deviceCalls,
  ...caregiverCalls,
  ...spreadsheetCalls,
  ...originDataCalls,
  ...alarmCalls,
  ...monitorCalls,
  ...reportCalls,
  ...firmwareCalls,
  ...appVersionCalls,
} as const satisfies Record<string, CallDef>;

export type Calls = typeof calls;
export type CallName = keyof Calls;
