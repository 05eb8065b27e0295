import { dailyReport, timePeriod } from '@vigil/contract/browser';
import { useCall } from '../../shared/api/use-call.ts';
import { useReportView, type ChosenResident } from './view-state.ts';

/**
 * Who a screen is about: the resident chosen in the report list when it is this one, with the
 * report's own data where the screen has a report (the provider, and everything after a reload).
 */
export const residentOf = (
  chosen: ChosenResident | null,
  userId: number,
  fromReport: ChosenResident | null | undefined,
): ChosenResident | null => {
  const same = chosen?.userId === userId ? chosen : null;
  if (same) return { ...same, providerName: fromReport?.providerName ?? same.providerName ?? null };
  return fromReport ?? null;
};

/**
 * The resident of a screen without a report of its own (the daily list, a night without a
 * report): after a reload nobody is chosen, so the latest night's report names them. `needed`:
 * the screen has nothing better.
 */
export const useResidentWithoutReport = (userId: number, needed = true): ChosenResident | null => {
  const { selectedUserInfo } = useReportView();
  const chosen = selectedUserInfo?.userId === userId ? selectedUserInfo : null;
  const look = needed && chosen === null;
  const period = useCall(timePeriod, { userId }, { enabled: look });
  const lastNight = period.data?.lastNight ?? null;
  const latest = useCall(dailyReport, { userId, date: lastNight ?? '' }, { enabled: look && lastNight !== null });
  return residentOf(chosen, userId, latest.data?.resident);
};
