import { z } from 'zod';
import {
  ALARM_TYPES,
  CommunityAlarmConfigSchema,
  type CommunityAlarmConfig,
  type CommunityAlarmType,
} from '@vigil/contract';

/**
 * Pure rules of communities: the shape of the stored alarm settings and how they change. Members'
 * sleep settings are the residents' own (resident_sleep_setting, decision 0027), not the community's.
 */

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
