import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { MonitorService } from './monitor.service.ts';

type MonitorCalls =
  'monitorUserList' | 'focusUsers' | 'addFocusUser' | 'deleteFocusUser' | 'residentLive' | 'subscribeVitals';

/** Handlers of the monitoring calls: input already validated, one service call each. */
export const monitorHandlers = (monitor: MonitorService): Pick<Handlers, MonitorCalls> => ({
  monitorUserList: (input, ctx) => monitor.list(callerOf(ctx), input),
  focusUsers: (_input, ctx) => monitor.focusList(callerOf(ctx)),
  addFocusUser: (input, ctx) => monitor.addFocus(callerOf(ctx), input.userId),
  deleteFocusUser: (input, ctx) => monitor.removeFocus(callerOf(ctx), input.userId),
  residentLive: (input, ctx) => monitor.resident(callerOf(ctx), input.userId, ctx.lang),
  subscribeVitals: (input, ctx) => monitor.followForSession(callerOf(ctx), input.userIds),
});
