/**
 * @vigil/simulator: a fleet of simulated devices speaking the real device protocol (issue 9).
 * The server imports it to run a demo care home in process; tests and benchmarks drive it.
 */
export { startFleet, prepareFleet, Fleet, DEFAULT_SITE } from './fleet.ts';
export type { FleetOptions, FleetEvents, FleetStats, ScenarioEvent } from './fleet.ts';
export { SimDevice } from './device.ts';
export type { SentMessage, StopMode, CommandRecord, DeviceOptions } from './device.ts';
export {
  KINDS,
  kindInfo,
  oneOfEach,
  parseDeviceCounts,
  planFleet,
  SUB_DEVICES_PER_HOST,
  type DeviceCount,
  type DevicePlan,
  type FleetPlan,
  type KindInfo,
} from './catalogue.ts';
export { SimClock, checkSimulatedTs, parseDuration, parseStart, type TsMode } from './clock.ts';
export { SCENARIOS, SCENARIO_NAMES, parseScenarios, type ScenarioName, type ScenarioRequest } from './scenarios.ts';
export { TruthLog, parseTruthLog } from './truth-log.ts';
export {
  connectingDevices,
  deriveSecret,
  newRunSalt,
  readSecrets,
  secretsFor,
  writeSecrets,
  type Secrets,
} from './secrets.ts';
export { provisionFleet, stockRowsOf, type ProvisionOptions, type ProvisionResult } from './provision.ts';
export {
  createBehaviour,
  type Behaviour,
  type Out,
  type EventBody,
  type TelemetryBody,
  type Site,
} from './behaviours.ts';
export { SleepSignal, type SleepSample } from './signals/sleep.ts';
export { Resident, type ResidentProfile, type SleepStage } from './signals/resident.ts';
export { Rng } from './random.ts';
