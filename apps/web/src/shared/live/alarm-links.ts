/** Where the console handles and shows alarms: the live page's handle link, a resident's live page. */
export const REAL_MONITOR_PATH = '/realMonitor/index';
/** `/realMonitor/index?handle=<alarm id>` opens that pending alarm's handling dialog. */
export const HANDLE_PARAM = 'handle';
export const handleAlarmPath = (id: number): string => `${REAL_MONITOR_PATH}?${HANDLE_PARAM}=${id}`;
export const residentLivePath = (userId: number): string => `/realMonitor/resident?userId=${userId}`;
