import {
  ALARM_SOURCE,
  ALARM_TYPES,
  DEFAULT_LATCH,
  DEFAULT_SNOOZE_MINUTES,
  DEFAULT_VOICE_WAY,
  defaultAlarmLevels,
  type AlarmLevel,
  type AlarmSource,
  type AlarmType,
  type AlertLevelSettings,
  type EndpointRequest,
  type saveAlertLevel,
  type VoiceWay,
} from '@vigil/contract/browser';

/** How the console presents one level's alarms: popup or not, the voice way, latching and snooze. */
export interface LevelPresentation {
  pc: boolean;
  globalVoiceWay: VoiceWay;
  /** Stays on the consoles after clearing by itself until handled (always for level 1). */
  latch: boolean;
  snoozeMinutes: number;
}

/** What the form edits: both levels' presentation and every type's level. */
export interface SettingsValues {
  alertTypeL1: LevelPresentation;
  alertTypeL2: LevelPresentation;
  levelMap: Record<AlarmType, AlarmLevel>;
}

export type SaveRequest = EndpointRequest<typeof saveAlertLevel>;

export const LEVELS: readonly AlarmLevel[] = [1, 2];
export const LEVEL_FIELD = { 1: 'alertTypeL1', 2: 'alertTypeL2' } as const satisfies Record<
  AlarmLevel,
  keyof SettingsValues
>;
/** The spec's red and orange (antd red-5 and orange-6, as the live alarm cards). */
export const LEVEL_COLOR = { 1: { tag: 'red', hex: '#ff4d4f' }, 2: { tag: 'orange', hex: '#fa8c16' } } as const;

/** The sources in the order the screen lists them, each with its types in the contract's order. */
const SOURCES: readonly AlarmSource[] = ['sleep', 'fall', 'call', 'security', 'device'];
export const TYPES_BY_SOURCE: readonly { source: AlarmSource; types: AlarmType[] }[] = SOURCES.map((source) => ({
  source,
  types: ALARM_TYPES.filter((type) => ALARM_SOURCE[type] === source),
}));

const presentation = (p: LevelPresentation): LevelPresentation => ({
  pc: p.pc,
  globalVoiceWay: p.globalVoiceWay,
  latch: p.latch,
  snoozeMinutes: p.snoozeMinutes,
});

/** The form's values from the server's answer (a type the answer leaves out keeps its default level). */
export const valuesOf = (settings: AlertLevelSettings): SettingsValues => ({
  alertTypeL1: presentation(settings.alertTypeL1),
  alertTypeL2: presentation(settings.alertTypeL2),
  levelMap: { ...defaultAlarmLevels(), ...settings.levelMap },
});

/** Out of the box: DEFAULT_LEVEL1_TYPES at level 1, the rest at 2; red spoken repeatedly, orange once; both pop up. */
export const defaultValues = (): SettingsValues => ({
  alertTypeL1: {
    pc: true,
    globalVoiceWay: DEFAULT_VOICE_WAY[1],
    latch: true,
    snoozeMinutes: DEFAULT_SNOOZE_MINUTES[1],
  },
  alertTypeL2: {
    pc: true,
    globalVoiceWay: DEFAULT_VOICE_WAY[2],
    latch: DEFAULT_LATCH[2],
    snoozeMinutes: DEFAULT_SNOOZE_MINUTES[2],
  },
  levelMap: defaultAlarmLevels(),
});

const samePresentation = (a: LevelPresentation, b: LevelPresentation) =>
  a.pc === b.pc && a.globalVoiceWay === b.globalVoiceWay && a.latch === b.latch && a.snoozeMinutes === b.snoozeMinutes;

/**
 * What a save sends: the types whose level differs from `base`, and a level's presentation only
 * when it differs. Another console's changes to anything else are kept by the server.
 */
export const changesOf = (values: SettingsValues, base: SettingsValues): SaveRequest => {
  const changedTypes = ALARM_TYPES.filter((type) => values.levelMap[type] !== base.levelMap[type]);
  const request: SaveRequest = {};
  if (changedTypes.length) request.levelMap = Object.fromEntries(changedTypes.map((t) => [t, values.levelMap[t]]));
  if (!samePresentation(values.alertTypeL1, base.alertTypeL1)) request.alertTypeL1 = presentation(values.alertTypeL1);
  if (!samePresentation(values.alertTypeL2, base.alertTypeL2)) request.alertTypeL2 = presentation(values.alertTypeL2);
  return request;
};

export const isEmpty = (request: SaveRequest): boolean => Object.keys(request).length === 0;

export const sameValues = (a: SettingsValues, b: SettingsValues): boolean => isEmpty(changesOf(a, b));
