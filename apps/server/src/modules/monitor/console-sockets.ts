import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Gauge, Registry } from 'prom-client';
import {
  ALARM_SOURCE,
  AlarmNoteSchema,
  pickLanguage,
  SOCKET_CLOSE,
  SOCKET_PATH,
  SOCKET_TIMING,
  SocketClientFrameSchema,
  type AlarmRecord,
  type AlarmType,
  type Language,
  type RelieveNotice,
  type SocketServerFrame,
} from '@vigil/contract';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Clock } from '../../clock.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { EventStream, PublishedEvent } from '../../core/events.ts';

/** The alarm events a console hears of. */
type AlarmEvent = PublishedEvent<'alarm.raised' | 'alarm.released' | 'alarm.handled'>;
import type { Log } from '../../core/log.ts';
import { listScope } from '../../core/tenant.ts';
import type { AuthOutcome } from '../../http/register-calls.ts';
import type { AlarmView } from '../alarms/alarm.service.ts';
import {
  ALARM_EVENT,
  ALARM_SETTINGS_CHANGED,
  SESSION_FOLLOWS,
  type TransientCatalogue,
} from '../../core/event-catalogue.ts';
import type { ConsoleLog } from '../alarms/alarm.service.ts';
import type { VitalsFollower, VitalsHub } from './vitals-hub.ts';

/** What the sockets need of the rest of the server. */
export interface ConsoleSocketDeps {
  clock: Clock;
  events: EventStream;
  log: Log;
  /** The session behind a socket key, checked as a request's token is. */
  authenticate: (key: string) => Promise<AuthOutcome>;
  /** An alarm with the names of where it was raised. */
  alarmView: (id: number) => Promise<AlarmView | undefined>;
  /** An alarm as the console reads it, in a language. */
  present: (view: AlarmView, lang: Language) => AlarmRecord;
  /** Keeps what a console reports (/wsLog) on an alarm's timeline, once per console, if its account sees the alarm. */
  recordConsoleLog: (caller: Caller, log: ConsoleLog) => Promise<void>;
  /** The live vitals: which residents each socket follows. */
  vitals: Pick<VitalsHub, 'follow' | 'unfollow'>;
  /** Of these residents, those the caller's list scope shows (unknown and foreign ids are dropped). */
  visibleResidents: (caller: Caller, ids: readonly number[]) => Promise<number[]>;
  /** How often an open socket's session is checked again (default 30 s). */
  recheckMs?: number;
  /** Waits between attempts to deliver an alarm whose read failed (default about a minute in all). */
  deliveryRetriesMs?: readonly number[];
}

interface Connection {
  ws: WebSocket;
  lang: Language;
  openedAt: number;
  lastHeard: number;
  key?: string;
  caller?: Caller;
  checkedAt: number;
  checking?: Promise<void>;
  /** wsLog entries already kept, so a console repeating itself adds nothing. */
  logged: Set<string>;
  /** Receives this socket's /vitalsNotify frames from the vitals hub. */
  follower: VitalsFollower;
  /** The residents last asked for (before the scope filter), kept to filter again when the scope changes. */
  requested: readonly number[];
  /** Counts subscriptions, so a slow scope check never applies an older list over a newer one. */
  followSeq: number;
}

const MAX_FRAME_BYTES = 16 * 1024;
/** After a session check that could not be made, the next one is tried this much later. */
const RECHECK_RETRY_MS = 5_000;
/** Waits between attempts to deliver an alarm whose read failed: about a minute in all. */
const DELIVERY_RETRIES_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/**
 * The console's live socket on `/websocket` (spec document 2 section 4; frames declared in the
 * contract's socket.ts). A socket logs in with its session key, sends a heartbeat every 10 s
 * and is closed after 30 s of silence; it receives the alarms its account may see (the chosen
 * provider, else the whole scope), each once stored, in the language of its connection. The
 * session behind it is checked again every `recheckMs`: a socket of an ended session is closed.
 * A socket follows residents' vitals (/websocket/subscribe/ frame, or POST /websocket/subscribe/
 * for every socket of its session on every instance) and gets at most one /vitalsNotify a second.
 */
export class ConsoleSockets {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly connections = new Set<Connection>();
  /** Console sockets open now, logged in or not yet (merged into /metrics). */
  readonly registry = new Registry();
  private sweepTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Alarm events are turned into frames one after another, so a release never overtakes its raise. */
  private fanOut: Promise<void> = Promise.resolve();
  private readonly recheckMs: number;
  private readonly deliveryRetriesMs: readonly number[];
  private stopped = false;

  constructor(private readonly deps: ConsoleSocketDeps) {
    const connections = this.connections;
    new Gauge({
      name: 'vigil_console_sockets',
      help: 'Console sockets open on this instance, by whether they logged in',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        let loggedIn = 0;
        for (const c of connections) if (c.caller) loggedIn++;
        this.set({ state: 'logged_in' }, loggedIn);
        this.set({ state: 'not_logged_in' }, connections.size - loggedIn);
      },
    });
    this.recheckMs = deps.recheckMs ?? 30_000;
    this.deliveryRetriesMs = deps.deliveryRetriesMs ?? DELIVERY_RETRIES_MS;
  }

  /** Takes the HTTP server's upgrades of SOCKET_PATH; others are refused. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://local');
      if (url.pathname !== SOCKET_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, request, url));
    });
  }

  start(): void {
    this.unsubscribe = this.deps.events.subscribe(
      (event) => {
        this.fanOut = this.fanOut.then(() => this.deliverOrAskToCheck(event));
      },
      [ALARM_EVENT.raised, ALARM_EVENT.released, ALARM_EVENT.handled],
    );
    const unsubscribeAlarms = this.unsubscribe;
    const unsubscribeSettings = this.deps.events.subscribe(
      (event) => this.broadcast(event.providerId, { path: '/dataChange', data: { what: 'alarmSettings' } }),
      [ALARM_SETTINGS_CHANGED],
    );
    const unsubscribeFollows = this.deps.events.listen(SESSION_FOLLOWS, (event) =>
      this.followForSession(event.payload),
    );
    // A note on an alarm's timeline: the payload is the frame's data, in every language.
    const unsubscribeNotes = this.deps.events.subscribe(
      (event) => {
        const note = AlarmNoteSchema.safeParse(event.payload.note);
        // An alarm of no provider is nobody's: never everyone's.
        if (note.success && event.providerId !== null)
          this.broadcast(event.providerId, { path: '/alarmNoteNotify', data: note.data });
      },
      [ALARM_EVENT.noted],
    );
    this.unsubscribe = () => {
      unsubscribeAlarms();
      unsubscribeSettings();
      unsubscribeFollows();
      unsubscribeNotes();
    };
    this.sweepTimer = setInterval(() => this.sweep(), 1_000);
    this.sweepTimer.unref();
  }

  /** Closes every socket with "going away": consoles reconnect, to another instance if there is one. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const c of this.connections) c.ws.close(SOCKET_CLOSE.goingAway, 'server stopping');
    await this.fanOut;
    this.wss.close();
  }

  /** Sockets open now, and how many of them have logged in (for metrics and tests). */
  get counts(): { open: number; loggedIn: number } {
    let loggedIn = 0;
    for (const c of this.connections) if (c.caller) loggedIn++;
    return { open: this.connections.size, loggedIn };
  }

  /** Pushes a frame to every logged-in socket whose account sees the provider (null: everyone signed in). */
  broadcast(providerId: number | null, frame: SocketServerFrame): void {
    const text = JSON.stringify(frame);
    for (const c of this.connections) if (c.caller && this.sees(c.caller, providerId)) c.ws.send(text);
  }

  private open(ws: WebSocket, request: IncomingMessage, url: URL): void {
    const now = this.deps.clock.now().getTime();
    const lang = pickLanguage(url.searchParams.get('lang') ?? request.headers['accept-language']);
    const follower: VitalsFollower = {
      send: (rows) => {
        if (ws.readyState === ws.OPEN) this.send(connection, { path: '/vitalsNotify', data: { rows } });
      },
    };
    const connection: Connection = {
      ws,
      lang,
      openedAt: now,
      lastHeard: now,
      checkedAt: now,
      logged: new Set(),
      follower,
      requested: [],
      followSeq: 0,
    };
    this.connections.add(connection);
    // A frame's work may need the database; its failure (the database down) must never escape as
    // an unhandled rejection: that ended the process and took every console and device with it.
    ws.on('message', (data, isBinary) => {
      this.onMessage(connection, data, isBinary).catch((error: unknown) =>
        this.deps.log.warn({ err: String(error) }, 'console socket frame not handled'),
      );
    });
    const gone = () => {
      this.connections.delete(connection);
      this.deps.vitals.unfollow(follower);
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  private send(c: Connection, frame: SocketServerFrame): void {
    c.ws.send(JSON.stringify(frame));
  }

  private async onMessage(c: Connection, data: RawData, isBinary: boolean): Promise<void> {
    c.lastHeard = this.deps.clock.now().getTime();
    const refuse = (msg: string) => this.send(c, { path: '/error', code: 400, msg });
    if (isBinary) return refuse('frames are JSON text');
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return refuse('not JSON');
    }
    const parsed = SocketClientFrameSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(`${issue?.path.join('.') || 'frame'}: ${issue?.message ?? 'invalid'}`);
    }
    const frame = parsed.data;
    if (frame.path === '/login') return this.login(c, frame.data.key);
    if (!c.caller || frame.data.key !== c.key) return refuse('log in first: /login with the session key');
    if (frame.path === '/hearBeat') {
      this.send(c, { path: '/hearBeat', code: 200 });
      return this.recheck(c);
    }
    if (frame.path === '/websocket/subscribe/') return this.follow(c, frame.data.userIds);
    const { type, alertRecordId } = frame.data.msg;
    const seen = `${type}:${alertRecordId}`;
    if (c.logged.has(seen)) return;
    c.logged.add(seen);
    await this.deps
      .recordConsoleLog(c.caller, { alarmId: alertRecordId, at: this.deps.clock.now(), console: type })
      .catch((error: unknown) => this.deps.log.warn({ err: String(error) }, 'console log not kept'));
  }

  private async login(c: Connection, key: string): Promise<void> {
    let outcome: AuthOutcome;
    try {
      outcome = await this.deps.authenticate(key);
    } catch (error) {
      // The session cannot be read (the database is down): not refused; the console reconnects and tries again.
      this.deps.log.warn({ err: String(error) }, 'console socket login not checked; asked to retry');
      c.ws.close(SOCKET_CLOSE.tryAgainLater, 'try again later');
      return;
    }
    if (outcome.kind !== 'ok') {
      this.send(c, { path: '/login', code: 401 });
      c.ws.close(SOCKET_CLOSE.sessionEnded, 'session ended');
      return;
    }
    c.key = key;
    c.caller = outcome.caller;
    c.checkedAt = this.deps.clock.now().getTime();
    this.send(c, { path: '/login', code: 200 });
    // Logged in again, perhaps as another session: what it followed is filtered by the new scope.
    if (c.requested.length) await this.follow(c, c.requested);
  }

  /**
   * Checks the session again when it was last checked `recheckMs` ago; closes the socket of an
   * ended one. A check that cannot be made (the database is down) keeps the socket: the session
   * did not end, and the console must go on hearing alarms. It is tried again a few seconds later.
   */
  private async recheck(c: Connection): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (!c.key || c.checking || now - c.checkedAt < this.recheckMs) return;
    c.checking = this.deps.authenticate(c.key).then(
      (outcome) => {
        c.checking = undefined;
        c.checkedAt = this.deps.clock.now().getTime();
        if (outcome.kind !== 'ok') {
          c.ws.close(SOCKET_CLOSE.sessionEnded, 'session ended');
          return;
        }
        const scopeBefore = c.caller ? scopeKey(c.caller) : '';
        c.caller = outcome.caller;
        // Another provider chosen meanwhile: the followed residents are those of the new scope.
        if (c.requested.length && scopeKey(outcome.caller) !== scopeBefore) void this.follow(c, c.requested);
      },
      (error: unknown) => {
        c.checking = undefined;
        c.checkedAt = this.deps.clock.now().getTime() - this.recheckMs + RECHECK_RETRY_MS;
        this.deps.log.warn({ err: String(error) }, 'console session not checked again; the socket stays open');
      },
    );
    await c.checking;
  }

  /** Follows the residents of this list the socket's session may see; unknown and foreign ids are dropped. */
  private async follow(c: Connection, ids: readonly number[]): Promise<void> {
    const caller = c.caller;
    if (!caller) return;
    const seq = ++c.followSeq;
    c.requested = [...ids];
    try {
      const visible = ids.length ? await this.deps.visibleResidents(caller, ids) : [];
      if (seq === c.followSeq && this.connections.has(c)) this.deps.vitals.follow(c.follower, visible);
    } catch (error) {
      this.deps.log.warn({ err: String(error) }, 'vitals subscription not applied');
    }
  }

  /** A session's list (POST /websocket/subscribe/, from any instance), already filtered by its scope. */
  private followForSession({ sessionId, userIds: ids }: TransientCatalogue['monitor.sessionFollows']): void {
    for (const c of this.connections) {
      if (c.caller?.sessionId !== sessionId) continue;
      c.followSeq++;
      c.requested = ids;
      this.deps.vitals.follow(c.follower, ids);
    }
  }

  /** Closes sockets that never logged in, or went silent. */
  private sweep(): void {
    const now = this.deps.clock.now().getTime();
    for (const c of this.connections) {
      if (!c.caller && now - c.openedAt > SOCKET_TIMING.loginWithinMs) c.ws.close(SOCKET_CLOSE.timeout, 'no login');
      else if (now - c.lastHeard > SOCKET_TIMING.silentCloseMs) c.ws.close(SOCKET_CLOSE.timeout, 'silent');
    }
  }

  private sees(caller: Caller, providerId: number | null): boolean {
    if (providerId === null) return true;
    return canSeeProvider(listScope(caller), providerId);
  }

  /**
   * Delivers an alarm event, trying again while its read fails (the database is down, briefly);
   * the events behind it wait, so a release never overtakes its raise. If it still fails, the
   * consoles that may see it are told to reload their pending alarms (/checkAlarm), which they
   * do from the database once it answers: an alarm is late, never silently missing.
   */
  private async deliverOrAskToCheck(event: AlarmEvent): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deliver(event);
        return;
      } catch (error) {
        if (this.stopped || attempt >= this.deliveryRetriesMs.length) {
          this.deps.log.error(
            { err: String(error), event: event.type },
            'alarm not delivered to consoles; asking them to reload their pending alarms',
          );
          this.askToCheck(event.providerId);
          return;
        }
        this.deps.log.warn({ err: String(error), event: event.type, attempt }, 'alarm delivery to consoles retried');
        await new Promise((resolve) => setTimeout(resolve, this.deliveryRetriesMs[attempt]));
      }
    }
  }

  /**
   * Tells the consoles that may see a provider's alarms (null: every console) to reload their
   * pending alarms: after an alarm that could not be delivered, or a gap in what other instances
   * relayed (the cross-instance bus was down).
   */
  askToCheck(providerId: number | null): void {
    this.broadcast(providerId, { path: '/checkAlarm', data: {} });
  }

  /** One alarm event to the sockets that may see it: one query, one frame per language. */
  private async deliver(event: AlarmEvent): Promise<void> {
    const { providerId } = event;
    if (providerId === null) return;
    const targets = [...this.connections].filter((c) => c.caller && this.sees(c.caller, providerId));
    if (!targets.length) return;
    const { id } = event.payload.alarm;
    const view = await this.deps.alarmView(id);
    if (!view) return;
    const raised = event.type === ALARM_EVENT.raised;
    const texts = new Map<Language, string>();
    const frameIn = (lang: Language): string => {
      const known = texts.get(lang);
      if (known) return known;
      const record = this.deps.present(view, lang);
      let frame: SocketServerFrame;
      if (raised) {
        const security = ALARM_SOURCE[record.alertType] === 'security';
        frame = { path: security ? '/safeAlertNotify' : '/alertNotify', data: record };
      } else {
        const notice: RelieveNotice = {
          ...record,
          alertType: 'RELIVE_ALERT',
          relievedType: record.alertType as AlarmType,
        };
        frame = { path: '/userStatusNotify', data: notice };
      }
      const text = JSON.stringify(frame);
      texts.set(lang, text);
      return text;
    };
    for (const c of targets) if (c.ws.readyState === c.ws.OPEN) c.ws.send(frameIn(c.lang));
  }
}

/** What a caller's lists show, comparable: a change means the followed residents are filtered again. */
const scopeKey = (caller: Caller): string => JSON.stringify(listScope(caller));
