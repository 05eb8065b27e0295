/**
 * The gateway's second door, for tests, test support, bench and scripts only (the ESLint rule
 * keeps production code out): the real classes behind the front door's narrow types, to build
 * or recognise them.
 */
export { EmbeddedBroker } from './broker/embedded-broker.ts';
export { ExternalBroker } from './broker/external-broker.ts';
export { DeviceFeed } from './ingest/device-feed.ts';
export { MinuteRollup } from './ingest/minute-rollup.ts';
export { OFFLINE_GRACE_MS } from './ingest/presence.ts';
export { LiveStateStore } from './live/live-state.ts';
