import { alarmCalls, CONSTANTS, SOCKET_TIMING, type ApiClient } from '@vigil/contract';
import WebSocket from 'ws';

/**
 * A caregiver's console as the web console behaves (apps/web/src/shared/live): logged in on one
 * instance's /websocket with the home's key, a heartbeat every 10 s, reconnecting 4 s after any
 * close; it keeps the pending alarms it was told of — added by a raise frame, removed by a
 * release (kept, when the alarm latches until handled) — and reloads them from /alarmLog/unDeal after every reconnect and on /checkAlarm.
 * What it shows at the end is what a caregiver would see.
 */
export class DrillConsole {
  /** Alarm id → when its raise frame arrived (ms since the epoch), first time only. */
  readonly pushed = new Map<number, number>();
  /** The pending alarms it shows now. */
  readonly pending = new Set<number>();
  readonly closes: number[] = [];
  /** For each close: ms until it was logged in again with its pending list reloaded. */
  readonly recoveries: number[] = [];
  private closedAt: number | undefined;
  checkAlarms = 0;
  reloads = 0;
  private ws: WebSocket | undefined;
  private beat: NodeJS.Timeout | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private stopped = false;
  private opened = 0;
  /** Frames that came while a reload was on its way: applied again over its answer. */
  private duringReload: [number, boolean][] | undefined;

  constructor(
    readonly name: string,
    private readonly wsUrl: string,
    private readonly key: string,
    private readonly api: ApiClient,
  ) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.connect(resolve, reject));
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.beat);
    clearTimeout(this.reconnect);
    this.ws?.terminate();
  }

  private connect(onOpen?: () => void, onError?: (error: Error) => void): void {
    const ws = new WebSocket(`${this.wsUrl}?lang=en-US`);
    this.ws = ws;
    ws.on('open', () => ws.send(JSON.stringify({ path: '/login', data: { key: this.key } })));
    ws.on('error', (error) => onError?.(error));
    ws.on('message', (data) => this.receive(String(data), onOpen));
    ws.on('close', (code) => {
      clearInterval(this.beat);
      if (this.ws !== ws || this.stopped) return;
      this.closes.push(code);
      // A refused connection (no ready instance yet) closes too and is tried again: the first close counts.
      this.closedAt ??= Date.now();
      this.reconnect = setTimeout(() => this.connect(), SOCKET_TIMING.reconnectMs);
    });
  }

  private receive(text: string, onOpen?: () => void): void {
    const frame = JSON.parse(text) as { path: string; code?: number; data?: { id?: number; awaitingAck?: boolean } };
    switch (frame.path) {
      case '/login':
        if (frame.code !== 200) return;
        this.beat = setInterval(
          () => this.ws?.send(JSON.stringify({ path: '/hearBeat', data: { key: this.key, msg: 'ping' } })),
          SOCKET_TIMING.heartbeatMs,
        );
        // After a reconnect the console asks for what it may have missed.
        if (this.opened++ > 0) void this.reloadAfterReconnect();
        onOpen?.();
        return;
      case '/alertNotify':
      case '/safeAlertNotify':
        if (frame.data?.id === undefined) return;
        if (!this.pushed.has(frame.data.id)) this.pushed.set(frame.data.id, Date.now());
        this.pending.add(frame.data.id);
        this.duringReload?.push([frame.data.id, true]);
        return;
      case '/userStatusNotify':
        // Cleared by itself but latching (decision 0035): the card stays until a person handles it.
        if (frame.data?.id === undefined || frame.data.awaitingAck) return;
        this.pending.delete(frame.data.id);
        this.duringReload?.push([frame.data.id, false]);
        return;
      case '/checkAlarm':
        this.checkAlarms++;
        void this.reload();
        return;
    }
  }

  private async reloadAfterReconnect(): Promise<void> {
    if (await this.reload()) {
      if (this.closedAt !== undefined) this.recoveries.push(Date.now() - this.closedAt);
      this.closedAt = undefined;
    }
  }

  /** What the console does on /checkAlarm: the pending alarms of the last hour replace its own. */
  async reload(): Promise<boolean> {
    const during: [number, boolean][] = [];
    this.duringReload = during;
    try {
      const page = await this.api.call(alarmCalls.alarmLogUnDeal, {
        pageNum: 1,
        pageSize: CONSTANTS.pendingAlarmPageSize,
        startTime: Math.floor(Date.now() / 1000) - CONSTANTS.pendingAlarmLookbackSeconds,
        orderBy: 'timeStamp',
        order: 'desc',
      });
      this.pending.clear();
      for (const row of page.rows) this.pending.add(row.id);
      for (const [id, open] of during) {
        if (open) this.pending.add(id);
        else this.pending.delete(id);
      }
      this.reloads++;
      return true;
    } catch {
      // The instance cannot answer now: the console tries again at its next reconnect or check.
      return false;
    } finally {
      if (this.duringReload === during) this.duringReload = undefined;
    }
  }
}
