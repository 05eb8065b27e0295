import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { systemClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';
import { keepServingOnUnhandledRejection } from './core/process-faults.ts';
import { StartupError } from './core/startup-error.ts';
import { openDatabase } from './db/database.ts';
import { startBootResponder } from './http/boot-responder.ts';
import type { MetricsListener } from './http/metrics-endpoint.ts';
import type { RunningDemo } from './modules/gateway/index.ts';

/**
 * The server's module graph, loaded while the embedded database's worker starts and migrates on
 * its own thread (decision 0047): seconds of the start-up that used to come one after the other.
 */
const loadServer = async () => {
  const [app, gateway, profiler, logger, redaction, uploads, metrics] = await Promise.all([
    import('./app.ts'),
    import('./modules/gateway/index.ts'),
    import('./core/cpu-profiler.ts'),
    import('./core/logger-options.ts'),
    import('./http/log-redaction.ts'),
    import('./http/uploads.ts'),
    import('./http/metrics-endpoint.ts'),
  ]);
  return {
    buildApp: app.buildApp,
    startDemo: gateway.startDemo,
    profileOnSignal: profiler.profileOnSignal,
    loggerOptions: logger.loggerOptions,
    redactedError: redaction.redactedError,
    sweepStaleUploads: uploads.sweepStaleUploads,
    listenForMetrics: metrics.listenForMetrics,
  };
};

/** A start-up failure the operator can fix (a port taken) is one line and exit 1, not a stack trace. */
const exitOnStartupError = (error: unknown): never => {
  if (error instanceof StartupError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
};

const start = async () => {
  const rejections = keepServingOnUnhandledRejection();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const boot = await startBootResponder(config.port, config.host).catch(exitOnStartupError);
  const loading = loadServer();
  // Awaited after the database opens; a failure to load is then thrown there, not left unhandled.
  loading.catch(() => undefined);
  // Until the app's logger exists, the embedded database's worker reports on stderr.
  let reportCrash = (reason: string) => console.error(`embedded database worker ended: ${reason}; restarting it`);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pglite'),
    worker: config.databaseWorker,
    onEmbeddedCrash: (reason) => reportCrash(reason),
    // Restarting did not help: one clear line, and the supervisor (or the operator) takes over.
    onEmbeddedGiveUp: (reason) => {
      console.error(reason);
      process.exit(1);
    },
  }).catch(exitOnStartupError);
  await database.migrate();
  const { buildApp, startDemo, profileOnSignal, loggerOptions, redactedError, sweepStaleUploads, listenForMetrics } =
    await loading;
  const built = await buildApp({
    config,
    database,
    clock: systemClock,
    logger: loggerOptions(config.logLevel, config.logFormat),
  }).catch(async (error: unknown) => {
    if (error instanceof StartupError) await database.close();
    return exitOnStartupError(error);
  });
  const { app, metrics } = built;
  reportCrash = (reason) => app.log.error({ reason }, 'embedded database worker ended; restarting it');
  rejections.attach({
    log: (reason) =>
      app.log.error({ err: redactedError(reason) }, 'unhandled promise rejection; the server keeps serving'),
    count: () => metrics.unhandledRejections.inc(),
  });

  let metricsListener: MetricsListener | undefined;
  let demo: RunningDemo | undefined;
  const stopProfiler = config.cpuProfileDir
    ? profileOnSignal(config.cpuProfileDir, {
        info: (message) => app.log.info(message),
        error: (message) => app.log.error(message),
      })
    : undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took over 15 s; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await stopProfiler?.();
      await demo?.stop();
      await metricsListener?.close();
      await app.close();
      await database.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // A killed process leaves its in-flight uploads behind; not awaited, nothing waits on it.
  void sweepStaleUploads().then(
    (removed) => removed && app.log.info(`removed ${removed} upload folder(s) left by an earlier crash`),
    (error: unknown) => app.log.warn({ err: error }, 'could not sweep old upload folders'),
  );
  await boot.close();
  await app.listen({ port: config.port, host: config.host });
  if (config.metrics.listen) {
    metricsListener = await listenForMetrics(metrics, config.metrics.listen);
    app.log.info(`metrics at http://${config.metrics.listen.host}:${metricsListener.port}/metrics`);
  }
  app.log.info(
    `Vigil ${database.kind === 'pglite' ? 'on embedded PGlite' : 'on PostgreSQL'} at http://localhost:${config.port}`,
  );
  if (config.demo) {
    const { port } = app.server.address() as AddressInfo;
    try {
      demo = await startDemo({
        db: database.db,
        settings: built.services.settings,
        sessions: built.services.store,
        log: app.log,
        dataDir: config.dataDir,
        api: `http://127.0.0.1:${port}`,
        mqttUrl: config.mqttUrl ?? `mqtt://127.0.0.1:${built.services.gateway.embeddedPort() ?? config.mqttPort}`,
      });
    } catch (error) {
      app.log.error({ err: error }, 'the demo care home could not start; the server runs without it');
    }
  }
  app.log.info(
    config.mqttUrl
      ? `devices through the MQTT broker at ${config.mqttUrl.replace(/\/\/[^@/]*@/, '//')}`
      : `devices connect to the embedded MQTT broker on port ${config.mqttPort}`,
  );
};

await start();
