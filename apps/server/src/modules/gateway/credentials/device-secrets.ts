import { eq, gte } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { deviceStock } from '../../../db/schema.ts';
import { DEVICE_SECRET_CHANGED } from '../../../core/event-catalogue.ts';
import type { EventStream } from '../../../core/events.ts';

/** A full read again this often: a backstop for a change whose announcement did not arrive. */
export const SECRETS_RELOAD_MS = 5 * 60_000;
/** Entries imported this long before the newest one held are read again: instances' clocks differ. */
const IMPORT_SLACK_MS = 5 * 60_000;

/**
 * The secret hash of every registered device, in memory, so a CONNECT costs no query: after a
 * restart every device of a site reconnects at once, and on the embedded database each query
 * waits its turn on one session behind the device events being stored (issue 22) — the
 * connections piled up unauthenticated and were closed.
 *
 * Kept true by the announcements of changes (a secret set or rotated, an entry removed, here or
 * relayed from another instance), a full read every few minutes, and the gate itself: a secret
 * that does not verify against the hash in memory is checked against the stored one before it is
 * refused, so a device given a new secret elsewhere connects at once. A device not in memory
 * makes the entries imported since the newest one held be read — one read for every device
 * connecting meanwhile, so a fleet loaded into the registry a minute ago connects with a handful
 * of queries, not one each. Devices the registry does not know are not kept, so a flood of
 * made-up IDs cannot fill memory (the lockout limits how often they make a read).
 */
const ENTRY = {
  deviceId: deviceStock.deviceId,
  secretHash: deviceStock.secretHash,
  importedAt: deviceStock.importedAt,
};

export class DeviceSecrets {
  /** Device ID (upper-case) → secret hash; null: registered without a secret. */
  private readonly hashes = new Map<string, string | null>();
  /** Changes announced, numbered, so a read that began before one does not bring back the old hash. */
  private changes = 0;
  private readonly changedAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The newest import time held (ms). */
  private newestImport = 0;
  /** The read of new entries not begun yet: every miss until it begins waits for it. */
  private nextRead: Promise<void> | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly reloadMs = SECRETS_RELOAD_MS,
  ) {}

  get size(): number {
    return this.hashes.size;
  }

  /** Reads every entry (at start, then every `reloadMs`). */
  async load(): Promise<void> {
    const since = this.changes;
    const rows = await this.db.select(ENTRY).from(deviceStock);
    const found = new Set<string>();
    for (const row of rows) found.add(this.hold(row, since));
    for (const id of this.hashes.keys()) if (!found.has(id) && !this.changedSince(id, since)) this.hashes.delete(id);
    for (const [id, at] of this.changedAt) if (at <= since) this.changedAt.delete(id);
  }

  start(report: (error: unknown) => void): void {
    this.timer = setInterval(() => this.load().catch(report), this.reloadMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Follows the announced changes: this instance's, and the others' relayed. */
  follow(events: EventStream): () => void {
    return events.subscribe((event) => this.forget(event.payload.deviceIds), [DEVICE_SECRET_CHANGED]);
  }

  /** Drops what memory holds of these devices: their next CONNECT reads the stored entry. */
  forget(deviceIds: readonly string[]): void {
    const at = ++this.changes;
    for (const raw of deviceIds) {
      const id = raw.toUpperCase();
      this.hashes.delete(id);
      this.changedAt.set(id, at);
    }
  }

  /**
   * The device's secret hash: `undefined` for a device the registry does not know, `null` for one
   * without a secret. `fromMemory` says whether it came without a query (then a secret that does
   * not verify is checked against `reread` before it is refused).
   */
  async hashOf(deviceId: string): Promise<{ hash: string | null | undefined; fromMemory: boolean }> {
    if (this.hashes.has(deviceId)) return { hash: this.hashes.get(deviceId), fromMemory: true };
    // Forgotten on a change: its entry may be of any age, so it is read by itself.
    if (this.changedAt.has(deviceId)) return { hash: await this.reread(deviceId), fromMemory: false };
    await this.readNew();
    return { hash: this.hashes.get(deviceId), fromMemory: false };
  }

  /** Reads the entries imported since the newest held, shared by every miss until it begins. */
  private readNew(): Promise<void> {
    if (this.nextRead) return this.nextRead;
    const next = this.reading.then(async () => {
      this.nextRead = undefined;
      const since = this.changes;
      const rows = await this.db
        .select(ENTRY)
        .from(deviceStock)
        .where(gte(deviceStock.importedAt, new Date(this.newestImport - IMPORT_SLACK_MS)));
      for (const row of rows) this.hold(row, since);
    });
    this.nextRead = next;
    this.reading = next.catch(() => undefined);
    return next;
  }

  /** Keeps a stored entry unless a change was announced since the read began; answers its ID. */
  private hold(row: { deviceId: string; secretHash: string | null; importedAt: Date }, since: number): string {
    const id = row.deviceId.toUpperCase();
    if (!this.changedSince(id, since)) this.hashes.set(id, row.secretHash);
    this.newestImport = Math.max(this.newestImport, row.importedAt.getTime());
    return id;
  }

  /** The stored entry of one device, read now and kept in memory. */
  async reread(deviceId: string): Promise<string | null | undefined> {
    const since = this.changes;
    const [entry] = await this.db
      .select({ secretHash: deviceStock.secretHash })
      .from(deviceStock)
      .where(eq(deviceStock.deviceId, deviceId));
    if (!this.changedSince(deviceId, since)) {
      if (entry) this.hashes.set(deviceId, entry.secretHash);
      else this.hashes.delete(deviceId);
    }
    return entry ? entry.secretHash : undefined;
  }

  private changedSince(deviceId: string, since: number): boolean {
    return (this.changedAt.get(deviceId) ?? 0) > since;
  }
}
