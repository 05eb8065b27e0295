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
import { accountHandlers } from './modules/accounts/account.routes.ts';
import { AccountService } from './modules/accounts/account.service.ts';
import { ensureInitialAdmin } from './modules/accounts/initial-admin.ts';
import { auditHandlers } from './modules/audit/audit.routes.ts';
import { Lifecycle } from './core/lifecycle.ts';
import { EventStream } from './core/events.ts';
import { LateLog } from './core/log.ts';
import { Transactions } from './db/transactions.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { authHandlers } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { LoginGuard } from './modules/auth/login-guard.ts';
import { SessionPurge } from './modules/auth/session-purge.ts';
import { redactedError } from './http/log-redaction.ts';
import { LoginThrottle } from './modules/auth/login-throttle.ts';
import { RsaKeyService } from './modules/auth/rsa-key.service.ts';
import { SessionService } from './modules/auth/session.service.ts';
import { SessionStore } from './modules/auth/session.store.ts';
import { buildDevicesModule } from './modules/devices/devices.module.ts';
import { registerGatewayRoutes } from './modules/devices/gateway/gateway.routes.ts';
import { serverLoginOf } from './modules/devices/broker/external-broker.ts';
import { buildFacility } from './modules/facility/facility.ts';
import { bedSheetHandlers } from './modules/facility/bed-sheet.routes.ts';
import { facilityHandlers } from './modules/facility/facility.routes.ts';
import { providerHandlers } from './modules/providers/provider.routes.ts';
import { residentSheetHandlers } from './modules/residents/resident-sheet.routes.ts';
import { ResidentSheetService } from './modules/residents/resident-sheet.service.ts';
import { residentHandlers } from './modules/residents/resident.routes.ts';
import { ResidentService } from './modules/residents/resident.service.ts';
import { ProviderService } from './modules/providers/provider.service.ts';
import { buildCare, careHandlers } from './modules/caregivers/care.ts';
import { SettingsService } from './modules/system/settings.service.ts';
import { systemHandlers } from './modules/system/system.routes.ts';
import { SystemService } from './modules/system/system.service.ts';

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

/** Wires services once; the HTTP layer and later adapters (MQTT, socket) share them. */
export const buildServices = (deps: AppDeps) => {
  const { db } = deps.database;
  const { clock, config } = deps;
  const audit = new AuditService(db, clock);
  const events = new EventStream();
  const transactions = new Transactions(db, events, clock);
  const settings = new SettingsService(db, clock);
  const store = new SessionStore(db, clock);
  // Accounts check provider existence and providers create login accounts: break the cycle with a late reference.
  const late: { providers?: ProviderService } = {};
  const loginGuard = new LoginGuard(db, clock);
  const accounts = new AccountService(
    db,
    clock,
    audit,
    store,
    (ids, tx) => {
      if (!late.providers) throw new Error('provider service not wired');
      return late.providers.existing(ids, tx);
    },
    (subject, tx) => {
      if (!late.providers) throw new Error('provider service not wired');
      return late.providers.scopeFor(subject, tx);
    },
    loginGuard,
  );
  const providers = new ProviderService(db, clock, audit, accounts, store);
  late.providers = providers;
  const sessions = new SessionService(store, clock, config.sessionIdleMs, accounts, providers);
  const rsa = new RsaKeyService(settings);
  const throttle = new LoginThrottle(config.loginRateLimitPerMinute, clock);
  const auth = new AuthService(
    clock,
    accounts,
    providers,
    store,
    sessions,
    rsa,
    audit,
    throttle,
    config.ssoSecret,
    loginGuard,
  );
  const system = new SystemService(db, clock, settings, providers, audit, transactions);
  const facility = buildFacility(db, clock, audit, providers);
  const residents = new ResidentService(db, clock, audit, facility.occupancy);
  const care = buildCare(db, clock, audit, accounts, providers);
  const log = new LateLog();
  const devicesModule = buildDevicesModule({ db, clock, config, audit, providers, log });
  const devices = devicesModule.services;
  const residentSheets = new ResidentSheetService(db, residents, facility.occupancy, facility.view, care.communities);
  const sessionPurge = new SessionPurge(db, clock, config.sessionIdleMs, loginGuard);
  return {
    /** Modules built in the one shape (services, handlers, parts); the others follow. */
    modules: { devices: devicesModule },
    /** Background parts log here once the HTTP server's logger exists. */
    log,
    events,
    transactions,
    sessionPurge,
    audit,
    settings,
    store,
    accounts,
    providers,
    sessions,
    rsa,
    auth,
    system,
    residents,
    residentSheets,
    care,
    facility,
    devices,
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
  // Events a crash left between commit and publish go out before the first request.
  await services.transactions.relayPending();
  const report = (part: string, error: unknown) =>
    app.log.error({ err: redactedError(error), part }, 'background part failed');
  // Started in order, stopped in reverse on close (SIGTERM): producers stop before writers flush.
  const lifecycle = new Lifecycle();
  for (const part of Object.values(services.modules).flatMap((m) => m.parts)) lifecycle.add(part);
  // Ended sessions and stale failure counts go away while the server runs.
  lifecycle.add({
    name: 'session purge',
    start: (fail) => services.sessionPurge.start(fail),
    stop: () => services.sessionPurge.stop(),
  });
  await lifecycle.start(report);
  app.addHook('onClose', () => lifecycle.stop(report));

  registerSecurityHeaders(app);
  await app.register(formbody);
  await app.register(multipart);
  const metrics = new Metrics([services.devices.gateway.metrics.registry]);

  const handlers: Handlers = {
    ...authHandlers(services.auth, services.sessions, services.rsa, services.accounts),
    ...providerHandlers(services.providers, services.rsa),
    ...accountHandlers(services.accounts, services.rsa),
    ...systemHandlers(services.system),
    ...auditHandlers(services.audit),
    ...careHandlers(services.care),
    ...residentHandlers(services.residents),
    ...residentSheetHandlers(services.residentSheets),
    ...facilityHandlers(services.facility.places, services.facility.view, services.facility.occupancy),
    ...bedSheetHandlers(services.facility.sheets),
    ...services.modules.devices.handlers,
  };
  // Before the routes: each route keeps the error handler in force when it is added (body parse errors).
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request);
    return reply.code(appError.httpStatus).send(envelopeOf(appError, languageOf(request)));
  });
  registerCalls(app, handlers, services.sessions, metrics, new IdempotencyGuard(deps.database.db, deps.clock));

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await deps.database.ready().catch(() => false);
    // Ingest that cannot write (database refusing, backlog over its bound) is not ready for more devices.
    const ingest = services.devices.gateway.health();
    const ok = ready && !ingest.failing && ingest.backlog < INGEST_BACKLOG_LIMIT && ingest.broker !== 'unreachable';
    return reply.code(ok ? 200 : 503).send({
      status: ok ? 'ready' : 'not-ready',
      database: deps.database.kind,
      ingest: { broker: ingest.broker, backlog: ingest.backlog, writing: ingest.failing ? 'failing' : 'ok' },
    });
  });
  registerMetricsRoute(app, metrics, deps.config.metrics.token);
  await registerGatewayRoutes(app, {
    gateway: services.devices.gateway,
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
