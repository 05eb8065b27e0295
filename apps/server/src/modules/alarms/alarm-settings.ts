import {
  ALARM_TYPES,
  DEFAULT_LATCH,
  DEFAULT_SNOOZE_MINUTES,
  DEFAULT_VOICE_WAY,
  defaultAlarmLevels,
  type AlarmLevel,
  type AlarmType,
  type VoiceWay,
} from '@vigil/contract';

/** How the console presents one level's alarms: popped up or not, and how they sound. */
export interface LevelPresentation {
  pc: boolean;
  globalVoiceWay: VoiceWay;
  /** Cleared alarms stay pending until handled (always for level 1). */
  latch: boolean;
  /** A handled condition alarm is raised again after this long if it still holds. */
  snoozeMinutes: number;
}

/** A provider's alarm settings (decision 0025); a type missing from `levels` takes the default. */
export interface ProviderAlarmSettings {
  levels: Partial<Record<AlarmType, AlarmLevel>>;
  level1: LevelPresentation;
  level2: LevelPresentation;
}

export const defaultPresentation = (level: AlarmLevel): LevelPresentation => ({
  pc: true,
  globalVoiceWay: DEFAULT_VOICE_WAY[level],
  latch: DEFAULT_LATCH[level],
  snoozeMinutes: DEFAULT_SNOOZE_MINUTES[level],
});

export const DEFAULT_PROVIDER_SETTINGS: ProviderAlarmSettings = {
  levels: {},
  level1: defaultPresentation(1),
  level2: defaultPresentation(2),
};

/**
 * The level of every alarm type for a bed: its community's choice, else its provider's, else the
 * default (level 1 for falls, SOS, badge SOS, smoke, gas, CO and breathing stop).
 */
export const resolveLevels = (
  provider: ProviderAlarmSettings | undefined,
  community: Partial<Record<AlarmType, AlarmLevel>> | undefined,
): Record<AlarmType, AlarmLevel> => {
  const defaults = defaultAlarmLevels();
  return Object.fromEntries(
    ALARM_TYPES.map((t) => [t, community?.[t] ?? provider?.levels[t] ?? defaults[t]]),
  ) as Record<AlarmType, AlarmLevel>;
};

export const presentationOf = (settings: ProviderAlarmSettings, level: AlarmLevel): LevelPresentation =>
  level === 1 ? settings.level1 : settings.level2;

/** The login answer's voiceFlag: some level is heard. */
export const voiceFlagOf = (settings: ProviderAlarmSettings): boolean =>
  settings.level1.globalVoiceWay !== 0 || settings.level2.globalVoiceWay !== 0;
