import { z } from 'zod';
import {
  ALARM_TYPES,
  CommunityAlarmConfigSchema,
  SleepConfigSchema,
  type CommunityAlarmConfig,
  type CommunityAlarmType,
  type SleepConfig,
} from '@vigil/contract';

/**
 * Pure rules of communities: the shape of the stored settings and how they change.
 *
 * community.sleep_config holds each member's sleep settings keyed by resident id:
 *   { "<residentId>": { leaveBedMode, sleepTime, wakeTime, sensitivity, mattress, updatedAt, updatedBy } }
 * Only residents who belong to the community (resident.community_id) count: entries of former
 * members are ignored when read and dropped at the next save.
 */

export type StoredSleep = SleepConfig & { updatedAt: string; updatedBy: number };

const storedSleep = (value: unknown): StoredSleep | null => {
  const config = SleepConfigSchema.safeParse(value);
  if (!config.success) return null;
  const { updatedAt, updatedBy } = value as { updatedAt?: unknown; updatedBy?: unknown };
  if (typeof updatedAt !== 'string' || typeof updatedBy !== 'number') return null;
  return { ...config.data, updatedAt, updatedBy };
};

/** The valid entries of a stored sleep_config, by resident id. */
export const storedSleepConfigs = (raw: unknown): Map<number, StoredSleep> => {
  const out = new Map<number, StoredSleep>();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    const id = Number(key);
    const entry = storedSleep(value);
    if (Number.isSafeInteger(id) && id > 0 && entry) out.set(id, entry);
  }
  return out;
};

/** The new sleep_config: current members' entries kept, the given residents' set to `config`. */
export const mergeSleepConfigs = (
  raw: unknown,
  memberIds: readonly number[],
  residentIds: readonly number[],
  config: SleepConfig,
  stamp: { updatedAt: string; updatedBy: number },
): Record<string, StoredSleep> => {
  const members = new Set(memberIds);
  const next = new Map([...storedSleepConfigs(raw)].filter(([id]) => members.has(id)));
  const entry: StoredSleep = {
    leaveBedMode: config.leaveBedMode,
    sleepTime: config.sleepTime,
    wakeTime: config.wakeTime,
    sensitivity: config.sensitivity,
    mattress: config.mattress,
    ...stamp,
  };
  for (const id of residentIds) next.set(id, entry);
  return Object.fromEntries([...next].sort(([a], [b]) => a - b).map(([id, value]) => [String(id), value]));
};

/** The first alarm type listed in both levels, or null. */
export const levelConflict = (
  level1: readonly CommunityAlarmType[],
  level2: readonly CommunityAlarmType[],
): CommunityAlarmType | null => level1.find((t) => level2.includes(t)) ?? null;

/**
 * A community's alarm settings as stored (decision 0025): its own level of some alarm types (the
 * others take the provider's), receivers and notification modes. The calls speak level1/level2.
 */
const StoredAlarmConfigSchema = z.object({
  levels: z.partialRecord(z.enum(ALARM_TYPES), z.union([z.literal(1), z.literal(2)])),
  receiverIds: CommunityAlarmConfigSchema.shape.receiverIds,
  notify: CommunityAlarmConfigSchema.shape.notify,
});
export type StoredAlarmConfig = z.infer<typeof StoredAlarmConfigSchema>;

/** A stored alarm_config, or null when none (or an unreadable one) is stored. */
export const storedAlarmSettings = (raw: unknown): StoredAlarmConfig | null => {
  const parsed = StoredAlarmConfigSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

/** A stored alarm_config as the calls show it: the types of each level in lists. */
export const storedAlarmConfig = (raw: unknown): CommunityAlarmConfig | null => {
  const stored = storedAlarmSettings(raw);
  if (!stored) return null;
  const at = (level: 1 | 2) => ALARM_TYPES.filter((t) => stored.levels[t] === level);
  return { level1: at(1), level2: at(2), receiverIds: stored.receiverIds, notify: stored.notify };
};
