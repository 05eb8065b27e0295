import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { buildOpenApi, Status } from '@vigil/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { AppError } from './core/app-error.ts';
import { registerConsole } from './http/console.ts';
import { IdempotencyGuard } from './http/idempotency.ts';
import { Metrics } from './http/metrics.ts';
import { registerMetricsRoute } from './http/metrics-endpoint.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { envelopeOf, languageOf, registerCalls, toAppError, type Handlers } from './http/register-calls.ts';
import { ensureInitialAdmin } from './modules/accounts/initial-admin.ts';
import { Lifecycle } from './core/lifecycle.ts';
import { EventStream } from './core/events.ts';
import { LateLog } from './core/log.ts';
import { Transactions } from './db/transactions.ts';
import { OutboxMetrics } from './db/outbox-metrics.ts';
import { EmbeddedMetrics } from './db/embedded/embedded-metrics.ts';
import { OutboxSweep, outboxSweepPart } from './db/outbox-sweep.ts';
import { backgroundPacer } from './core/background-pacer.ts';
import { RedisEventRelay } from './core/event-relay.ts';
import { redactedError } from './http/log-redaction.ts';
import { handlersOf } from './module.ts';
import { buildAccountsModule } from './modules/accounts/accounts.module.ts';
import { buildAlarmsModule } from './modules/alarms/alarms.module.ts';
import { buildReportsModule } from './modules/reports/reports.module.ts';
import { buildFirmwareModule } from './modules/firmware/firmware.module.ts';
import { registerFirmwareDownload } from './modules/firmware/download.route.ts';
import { buildMonitorModule } from './modules/monitor/monitor.module.ts';
import { buildAuditModule } from './modules/audit/audit.module.ts';
import { buildAuthModule, buildSignIn } from './modules/auth/auth.module.ts';
import { buildCareModule } from './modules/caregivers/care.module.ts';
import { buildDevicesModule } from './modules/devices/devices.module.ts';
import {
  buildGatewayModule,
  registerGatewayRoutes,
  serverLoginOf,
  type CommandDelivery,
} from './modules/gateway/index.ts';
import { buildFacilityModule } from './modules/facility/facility.module.ts';
import type { ProviderService } from './modules/providers/provider.service.ts';
import { buildProvidersModule } from './modules/providers/providers.module.ts';
import { buildResidentsModule } from './modules/residents/residents.module.ts';
import { buildSleepSettingsModule } from './modules/sleep-settings/sleep-settings.module.ts';
import { SettingsService } from './modules/system/settings.service.ts';
import { buildSystemModule } from './modules/system/system.module.ts';
import { buildAppReleasesModule } from './modules/app-releases/app-releases.module.ts';

export { VERSION } from './version.ts';
/** Device messages waiting to be written beyond which /readyz says not ready. */
const INGEST_BACKLOG_LIMIT = 20_000;
import { VERSION } from './version.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Build the web console when it is missing (npm start); tests leave it off. */
}

/**
 * Wires the modules once, each built in the one shape (src/module.ts), in dependency order; the
 * HTTP layer and later adapters (MQTT, socket) share their services.
 */
export const buildServices = (deps: AppDeps) => {
  const { db } = deps.database;
  const { clock, config } = deps;
  /** Background parts log here once the HTTP server's logger exists. */
  const log = new LateLog();
  const events = new EventStream();
  const outboxMetrics = new OutboxMetrics();
  const transactions = new Transactions(db, events, clock, {
    log,
    metrics: outboxMetrics,
    graceMs: config.outbox.graceMs,
  });
  // Every background job's queries take turns on one pacer: together they take at most the share
  // of the thread decision 0028 allows, however many run at once.
  const pacer = backgroundPacer(deps.database.kind);
  // Marks what could not be marked, publishes what a dead instance left, purges what is old (decision 0037).
  const outboxSweep = new OutboxSweep(
    { db, clock, transactions, pacer, metrics: outboxMetrics, log },
    { everyMs: config.outbox.sweepMs, retentionMs: config.outbox.retentionMs },
  );
  // Built before the modules that own them, because modules built earlier use them: the instance
  // settings (system's; the RSA key reads them) and auth's session store, sign-in failure counts
  // and RSA key (accounts and providers use them; the rest of auth needs accounts and providers).
  const settings = new SettingsService(db, clock);
  const signIn = buildSignIn({ db, clock, settings });
  const audit = buildAuditModule({ db, clock });
  const { audit: auditService } = audit.services;
  // Accounts check provider existence and providers create login accounts, and the gateway delivers
  // the commands of the devices module built after it: break the cycles with late references.
  const late: { providers?: ProviderService; commands?: CommandDelivery } = {};
  const accounts = buildAccountsModule({
    db,
    clock,
    audit: auditService,
    signIn,
    providers: () => {
      if (!late.providers) throw new Error('provider service not wired');
      return late.providers;
    },
  });
  const providers = buildProvidersModule({
    db,
    clock,
    audit: auditService,
    accounts: accounts.services.accounts,
    signIn,
  });
  late.providers = providers.services.providers;
  const shared = {
    db,
    clock,
    audit: auditService,
    accounts: accounts.services.accounts,
    providers: providers.services.providers,
  };
  const auth = buildAuthModule({ ...shared, config, signIn, log });
  const system = buildSystemModule({ ...shared, settings, transactions });
  // The gateway before the devices module: device records record their moves through it, and
  // device states and commands read its live state; it delivers their commands once it starts.
  const gateway = buildGatewayModule({
    db,
    transactions,
    events,
    clock,
    config,
    audit: auditService,
    log,
    commands: () => {
      if (!late.commands) throw new Error('device commands not wired');
      return late.commands;
    },
  });
  // Devices before the facility: a bed shows its device's state, read at the devices module's front door.
  const devices = buildDevicesModule({ ...shared, config, transactions, gateway: gateway.services });
  late.commands = devices.services.commands;
  // Bed links move devices and residents: each move is announced through the gateway's moves.
  const facility = buildFacilityModule({
    ...shared,
    transactions,
    deviceStates: devices.services.states,
    deviceMoves: gateway.services.moves,
  });
  // Residents' sleep settings: communities save them, the alarm engine, reports and rollouts read them.
  const sleepSettings = buildSleepSettingsModule({ ...shared, transactions });
  const care = buildCareModule({ ...shared, transactions, sleepSettings: sleepSettings.services.settings });
  const residents = buildResidentsModule({
    ...shared,
    transactions,
    facility: facility.services,
    communities: care.services.communities,
  });
  const appReleases = buildAppReleasesModule({
    db,
    clock,
    dataDir: config.dataDir,
    pacer,
  });
  const alarms = buildAlarmsModule({
    ...shared,
    config,
    transactions,
    events,
    gateway: gateway.services,
    sleepSettings: sleepSettings.services.settings,
    log,
  });
  auth.services.sessions.voiceFlagOf = (providerId) => alarms.services.settings.voiceFlag(providerId);
  auth.services.sessions.deviceGroupsOf = (caller) => devices.services.devices.groupsOf(caller);
  // The heart and breathing rate limits the alarm engine applies to a bed: the charts' bands.
  const vitalLimits = (providerId: number, residentId: number) => {
    const rules = alarms.services.watch.rulesOf(providerId, residentId);
    return {
      heartMin: rules.heartMin,
      heartMax: rules.heartMax,
      breathMin: rules.breathMin,
      breathMax: rules.breathMax,
    };
  };
  const monitor = buildMonitorModule({
    db,
    clock,
    events,
    log,
    sessions: auth.services.sessions,
    alarms: alarms.services.alarms,
    vitalLimits,
    gateway: gateway.services,
    live: gateway.services.live.store,
    deviceStates: devices.services.states,
    timeZone: config.timeZone,
    redisUrl: config.redisUrl,
  });
  const reports = buildReportsModule({
    db,
    pacer,
    clock,
    timeZone: config.timeZone,
    reports: config.reports,
    vitalLimits,
    residents: monitor.services.monitor,
    sleepSettings: sleepSettings.services.settings,
  });
  const firmware = buildFirmwareModule({
    db,
    clock,
    audit: auditService,
    commands: devices.services.commands,
    pacer,
    feed: gateway.services.feed,
    sleepSettings: sleepSettings.services.settings,
    dataDir: config.dataDir,
    timeZone: config.timeZone,
    firmware: config.firmware,
  });
  return {
    /**
     * Every module, in the order their background parts start (stopped in reverse): the gateway's
     * writers and broker first (its own order: writers before the broker), then the alarm engine,
     * monitoring, reports, firmware and the session purge; the modules without parts after them.
     */
    modules: {
      gateway,
      devices,
      alarms,
      monitor,
      reports,
      firmware,
      auth,
      audit,
      accounts,
      providers,
      system,
      facility,
      care,
      residents,
      sleepSettings,
      appReleases,
    },
    log,
    events,
    transactions,
    outboxSweep,
    outboxMetrics,
    sessionPurge: auth.services.sessionPurge,
    audit: auditService,
    settings,
    store: signIn.store,
    accounts: accounts.services.accounts,
    providers: providers.services.providers,
    sessions: auth.services.sessions,
    rsa: signIn.rsa,
    auth: auth.services.auth,
    system: system.services.system,
    residents: residents.services.residents,
    residentSheets: residents.services.sheets,
    care: care.services,
    facility: facility.services,
    gateway: gateway.services,
    devices: devices.services,
    alarms: alarms.services,
    sockets: monitor.services.sockets,
    monitor: monitor.services,
    reports: reports.services,
    firmware: firmware.services,
  };
};
export type Services = ReturnType<typeof buildServices>;

export interface VigilApp {
  app: FastifyInstance;
  services: Services;
  metrics: Metrics;
}

export const buildApp = async (deps: AppDeps): Promise<VigilApp> => {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Shutdown waits for in-flight calls; idle keep-alive sockets must not hold it up.
    forceCloseConnections: 'idle',
  });
  const services = buildServices(deps);
  services.log.attach(app.log);
  await services.rsa.init();
  await ensureInitialAdmin(deps.database.db, services.accounts, services.audit, {
    userName: deps.config.adminUser,
    password: deps.config.adminPassword,
    dataDir: deps.config.dataDir,
    log: (message) => app.log.warn(message),
  });
  services.events.reportErrorsTo((error, event) =>
    app.log.error({ err: redactedError(error), event: event.type }, 'event handler failed'),
  );
  // With REDIS_URL, domain events go to and come from the other instances (alarms, settings).
  const relay = deps.config.redisUrl
    ? new RedisEventRelay(deps.config.redisUrl, services.events, services.log)
    : undefined;
  await relay?.start();
  if (relay) app.addHook('onClose', () => relay.stop());
  // Alarms raised elsewhere while the relay was down never reached this instance's consoles.
  relay?.onGap(() => services.sockets.askToCheck(null));
  // Nor did the moves and absences announced there: every device and absence is read again.
  relay?.onGap(() => {
    const failed = (error: unknown) =>
      app.log.warn({ err: redactedError(error) }, 'devices and absences not read again after a relay gap');
    services.gateway.directory.load().catch(failed);
    services.alarms.watch.load().catch(failed);
  });
  // Events a crash left between commit and publish go out before the first request.
  await services.transactions.relayPending();
  const report = (part: string, error: unknown) =>
    app.log.error({ err: redactedError(error), part }, 'background part failed');
  // Every module's parts, in the order of services.modules (the gateway, then the session purge), started in
  // order and stopped in reverse on close (SIGTERM): producers stop before writers flush.
  const lifecycle = new Lifecycle();
  for (const part of Object.values(services.modules).flatMap((m) => m.parts)) lifecycle.add(part);
  // Started last, stopped first: it only publishes what the modules' own writers committed.
  lifecycle.add(outboxSweepPart(services.outboxSweep));
  await lifecycle.start(report);
  app.addHook('onClose', () => lifecycle.stop(report));
  // The console's live socket upgrades on the API's port; its sockets close before the HTTP
  // server waits for its connections to end (an open socket would hold the close up).
  services.sockets.attach(app.server);
  app.addHook('preClose', () => services.sockets.stop());

  registerSecurityHeaders(app);
  await app.register(formbody);
  await app.register(multipart);
  const embeddedMetrics = deps.database.embedded ? new EmbeddedMetrics(deps.database.embedded) : undefined;
  const metrics = new Metrics([
    services.gateway.metrics.registry,
    services.alarms.metrics.registry,
    services.sockets.registry,
    services.outboxMetrics.registry,
    services.alarms.notifier.registry,
    ...(relay ? [relay.registry] : []),
    ...(embeddedMetrics ? [embeddedMetrics.registry] : []),
  ]);

  // Every call has a handler in some module, else this does not compile.
  const handlers: Handlers = handlersOf(services.modules);
  // Before the routes: each route keeps the error handler in force when it is added (body parse errors).
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request);
    return reply.code(appError.httpStatus).send(envelopeOf(appError, languageOf(request)));
  });
  registerCalls(app, handlers, services.sessions, metrics, new IdempotencyGuard(deps.database.db, deps.clock), {
    firmwareUpload: deps.config.firmware.maxBytes,
  });
  registerFirmwareDownload(app, {
    db: deps.database.db,
    clock: deps.clock,
    repo: services.firmware.firmware.repo,
    cache: services.firmware.cache,
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await deps.database.ready().catch(() => false);
    // Ingest that cannot write (database refusing, backlog over its bound) is not ready for more devices.
    const ingest = services.gateway.health();
    const ok =
      ready &&
      !ingest.failing &&
      ingest.backlog < INGEST_BACKLOG_LIMIT &&
      (ingest.broker === 'embedded' || ingest.broker === 'connected');
    return reply.code(ok ? 200 : 503).send({
      status: ok ? 'ready' : 'not-ready',
      database: deps.database.kind,
      // The embedded database's worker (decision 0047): up, restarting after a crash, or failed.
      ...(deps.database.embedded ? { worker: deps.database.embedded.state() } : {}),
      ingest: { broker: ingest.broker, backlog: ingest.backlog, writing: ingest.failing ? 'failing' : 'ok' },
      // Shown, not required: every instance shares the one Redis, and a load balancer that took them
      // all out for it would silence every console; each instance's own consoles keep their alarms.
      relay: relay ? (relay.up ? 'connected' : 'down') : 'off',
      // Shown, not required, for the same reason: while down, each instance judges the duration
      // alarms (BREATH_STOP, LEAVE_BED, …) on the samples it receives (decision 0039).
      spells: services.alarms.spellLedger ? (services.alarms.spellLedger.up ? 'shared' : 'down') : 'off',
    });
  });
  registerMetricsRoute(app, metrics, deps.config.metrics.token);
  await registerGatewayRoutes(app, {
    gateway: services.gateway,
    clock: deps.clock,
    authToken: deps.config.mqttAuthToken,
    serverLogin: serverLoginOf(deps.config.mqttUrl),
    pushSecret: deps.config.operatorPushSecret,
  });
  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApi(VERSION) as never } });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Swagger UI's own policy (hashes of its inline scripts), minus the https upgrade that breaks plain-http installs.
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header.replace(/\s*upgrade-insecure-requests;?/, '').replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });

  const consoleFallback = await registerConsole(app, {
    dir: deps.config.consoleDir,
    log: (message) => app.log.warn(message),
  });
  app.setNotFoundHandler((request, reply) => {
    const console = consoleFallback(request);
    if (console) return console(reply);
    const error = new AppError(Status.FAILED, 'not_found', {}, 404);
    return reply.code(404).send(envelopeOf(error, languageOf(request)));
  });
  return { app, services, metrics };
};
