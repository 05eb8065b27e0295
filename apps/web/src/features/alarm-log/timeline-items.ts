import { WS_LOG_TYPES, type AlarmTimelineStep, type WsLogType } from '@vigil/contract/browser';

/**
 * A row of an alarm's timeline as the drawer shows it: one step, or the same console report from
 * many consoles ("announced aloud on 16 consoles") collapsed into one row that opens.
 */
export type TimelineItem =
  { kind: 'one'; step: AlarmTimelineStep } | { kind: 'consoles'; console: WsLogType; steps: AlarmTimelineStep[] };

/** What a console reported (/wsLog type) for a step; older rows without it, by their step. */
const consoleOf = (step: AlarmTimelineStep): WsLogType => {
  const told = step.detail.console;
  if (typeof told === 'string' && (WS_LOG_TYPES as readonly string[]).includes(told)) return told as WsLogType;
  return step.step === 'played' ? 'playAlarm' : 'newAlarm';
};

/**
 * The timeline's rows, in time order: each console report ("delivered", "played") kept by every
 * console is one row at the first console's time, holding each console's report; a report by a
 * single console stays a plain step.
 */
export const timelineItems = (steps: readonly AlarmTimelineStep[]): TimelineItem[] => {
  const items: TimelineItem[] = [];
  const groups = new Map<WsLogType, Extract<TimelineItem, { kind: 'consoles' }>>();
  for (const step of steps) {
    if (step.step !== 'delivered' && step.step !== 'played') {
      items.push({ kind: 'one', step });
      continue;
    }
    const console = consoleOf(step);
    const group = groups.get(console);
    if (group) {
      group.steps.push(step);
      continue;
    }
    const created: Extract<TimelineItem, { kind: 'consoles' }> = { kind: 'consoles', console, steps: [step] };
    groups.set(console, created);
    items.push(created);
  }
  return items.map((item) =>
    item.kind === 'consoles' && item.steps.length === 1 && item.steps[0] ? { kind: 'one', step: item.steps[0] } : item,
  );
};
