import { DeviceStockRowInputSchema, isPlatformRole } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { fail, forbidden } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import { scopeIds } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { Transactions } from '../../db/transactions.ts';
import { DEVICE_SECRET_CHANGED } from '../../core/event-catalogue.ts';
import { generateDeviceSecret, hashDeviceSecret } from '../gateway/index.ts';
import { typeOf } from './device.policy.ts';
import { problemOfIssue, uniqueMessage, type DeviceRowProblem } from './row-problems.ts';
import { StockRepository } from './stock.repository.ts';

const STOCK_CONFLICTS = {
  device_stock_device_id: 'deviceStock.exists',
  device_stock_cipher_id: 'deviceStock.cipherExists',
} as const;

/** Secrets hashed at once while loading entries: scrypt runs on libuv's pool, so more would only queue. */
const HASH_CONCURRENCY = 8;

type StockRowInput = ReturnType<typeof DeviceStockRowInputSchema.parse>;

/**
 * Registry rows checked without the database (format, catalogue, repeats within the list), with
 * their secrets hashed when every row passed. Built outside any transaction, so hashing thousands
 * of secrets never holds a connection.
 */
export interface PreparedStockRows {
  readonly count: number;
  readonly valid: readonly { index: number; row: StockRowInput }[];
  readonly problems: readonly DeviceRowProblem[];
  /** The secret hash of each valid row that has a secret, by row index; empty while problems remain. */
  readonly hashes: ReadonlyMap<number, string>;
}

/** Runs `work` over `items` with at most `limit` running at once, answers in order. */
const mapBounded = async <T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
};

export interface StockListInput {
  pageNum: number;
  pageSize: number;
  keyWord?: string | undefined;
  deviceType?: number | undefined;
  stockState?: 'in_stock' | 'added' | undefined;
}

/**
 * The device registry (stock): IDs of manufactured devices, loaded by platform administrators.
 * An entry is "in stock" until a provider adds it, and returns to stock when the device is deleted.
 */
export class StockService {
  readonly repo = new StockRepository();
  constructor(
    private readonly db: Db,
    /** Secret changes and removals are announced in their transaction: gates forget the old hash. */
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  private assertAdmin(caller: Caller): void {
    if (caller.role !== 'SUPER_ROLE' && caller.role !== 'SENIOR_ROLE') throw forbidden();
  }

  /**
   * Checks rows without the database (format, catalogue type and model, repeats within the list)
   * and, when all pass, hashes their secrets (at most HASH_CONCURRENCY at a time). Rows may be raw
   * (a spreadsheet's cells); each is validated with the contract's row schema. Call it before
   * opening the transaction that `addPrepared` runs in; `hash` false skips hashing for a list
   * already known to be refused (a spreadsheet with bad cells).
   */
  async prepare(caller: Caller, rows: readonly unknown[], hash = true): Promise<PreparedStockRows> {
    this.assertAdmin(caller);
    const problems: DeviceRowProblem[] = [];
    const valid: { index: number; row: StockRowInput }[] = [];
    const firstById = new Map<string, number>();
    const firstByCipher = new Map<string, number>();
    rows.forEach((raw, index) => {
      const parsed = DeviceStockRowInputSchema.safeParse(raw);
      if (!parsed.success) {
        const [issue] = parsed.error.issues;
        if (issue) problems.push(problemOfIssue(index, issue, raw));
        return;
      }
      const row = parsed.data;
      const model = typeOf(row.deviceType).model;
      if (row.model && row.model.toLowerCase() !== model.toLowerCase()) {
        problems.push({ index, field: 'model', key: 'deviceStock.modelMismatch', params: { model } });
        return;
      }
      const repeated = firstById.get(row.deviceId);
      if (repeated !== undefined) {
        problems.push({ index, field: 'deviceId', key: 'deviceStock.duplicate', params: this.other(repeated) });
        return;
      }
      firstById.set(row.deviceId, index);
      if (row.cipherId) {
        const repeatedCipher = firstByCipher.get(row.cipherId);
        if (repeatedCipher !== undefined) {
          problems.push({ index, field: 'cipherId', key: 'deviceStock.duplicate', params: this.other(repeatedCipher) });
          return;
        }
        firstByCipher.set(row.cipherId, index);
      }
      valid.push({ index, row });
    });
    const hashes = new Map<number, string>();
    if (hash && !problems.length) {
      // Only a list that can still be written pays for scrypt; the secrets themselves go no further.
      const secrets = valid.flatMap(({ index, row }) => (row.secret ? [{ index, secret: row.secret }] : []));
      const hashed = await mapBounded(secrets, HASH_CONCURRENCY, ({ secret }) => hashDeviceSecret(secret));
      secrets.forEach(({ index }, at) => hashes.set(index, hashed[at] as string));
    }
    return { count: rows.length, valid, problems, hashes };
  }

  /**
   * Adds registry entries inside `tx`, all or nothing: every row is checked first (format, catalogue
   * type and model, repeats within the list, entries already registered) and every problem is
   * returned; only a list without problems is written, secrets as hashes only. Rows may be raw (a
   * spreadsheet's cells); each is validated with the contract's row schema. Callers that open the
   * transaction themselves `prepare` first and call `addPrepared`, so hashing holds no connection.
   */
  async addMany(
    caller: Caller,
    rows: readonly unknown[],
    tx: Executor,
    ip = '',
  ): Promise<{ added: number; problems: DeviceRowProblem[] }> {
    return this.addPrepared(caller, await this.prepare(caller, rows), tx, ip);
  }

  /** The database half of `addMany`: entries already registered, then the insert and its audit. */
  async addPrepared(
    caller: Caller,
    prepared: PreparedStockRows,
    tx: Executor,
    ip = '',
  ): Promise<{ added: number; problems: DeviceRowProblem[] }> {
    this.assertAdmin(caller);
    const { valid, hashes } = prepared;
    const problems = [...prepared.problems];
    const known = await this.repo.existing(
      tx,
      valid.map((v) => v.row.deviceId),
      valid.flatMap((v) => (v.row.cipherId ? [v.row.cipherId] : [])),
    );
    for (const { index, row } of valid) {
      if (known.deviceIds.has(row.deviceId)) {
        problems.push({ index, field: 'deviceId', key: 'deviceStock.exists', params: {} });
      } else if (row.cipherId && known.cipherIds.has(row.cipherId)) {
        problems.push({ index, field: 'cipherId', key: 'deviceStock.cipherExists', params: {} });
      }
    }
    if (problems.length) return { added: 0, problems: problems.sort((a, b) => a.index - b.index) };
    if (!valid.length) return { added: 0, problems };

    const now = this.clock.now();
    try {
      // A savepoint, so a concurrent import of the same ID fails this call and not the caller's transaction state.
      await tx.transaction(async (sp) => {
        await this.repo.insertMany(
          sp,
          valid.map(({ index, row }) => {
            const secretHash = hashes.get(index) ?? null;
            // Never store an entry without the secret it came with (prepared with hash = false).
            if (row.secret && !secretHash) throw new Error('stock import: a secret was not hashed');
            return {
              deviceId: row.deviceId,
              cipherId: row.cipherId ?? null,
              typeCode: row.deviceType,
              model: typeOf(row.deviceType).model,
              imei: row.imei ?? null,
              imei4g: row.imei4g ?? null,
              iccid: row.iccid?.toUpperCase() ?? null,
              firmwareType: row.firmwareType ?? null,
              batch: row.batch || null,
              secretHash,
              secretSetAt: secretHash ? now : null,
              importedBy: caller.accountId,
              importedAt: now,
            };
          }),
        );
      });
    } catch (error) {
      const key = uniqueMessage(error, STOCK_CONFLICTS);
      if (key) throw fail(key);
      throw error;
    }
    const batches = [...new Set(valid.map((v) => v.row.batch).filter(Boolean))].slice(0, 20);
    await this.audit.byCaller(
      caller,
      ip,
      'deviceStock.import',
      {
        type: 'deviceStock',
        id: valid.length,
        providerId: null,
        // How many entries came with a secret; never the secrets or their hashes.
        detail: { count: valid.length, batches, secrets: hashes.size },
      },
      tx,
    );
    return { added: valid.length, problems };
  }

  private other(index: number) {
    return { other: index + 1, otherIndex: index };
  }

  /** The import call: secrets hashed first, then one transaction; an empty list is refused. */
  async import(caller: Caller, rows: readonly unknown[], ip: string) {
    this.assertAdmin(caller);
    if (!rows.length) throw fail('deviceStock.empty');
    const prepared = await this.prepare(caller, rows);
    return this.db.transaction((tx) => this.addPrepared(caller, prepared, tx, ip));
  }

  /**
   * Sets the secret an entry's device connects with (MQTT password), or generates one when none is
   * given (rotate). The old secret stops working. Answers the secret in plain text, this once: only
   * its hash is stored, and neither is logged or audited. An administrator limited by data
   * permission reaches only the entries the list shows them (in stock, or added by their
   * providers); any other is answered as unknown.
   */
  async setSecret(
    caller: Caller,
    input: { deviceId: string; secret?: string | undefined },
    ip: string,
  ): Promise<{ deviceId: string; secret: string }> {
    this.assertAdmin(caller);
    const generated = input.secret === undefined;
    const secret = input.secret ?? generateDeviceSecret();
    // Hashed before the transaction: the entry's lock is held only for the write.
    const secretHash = await hashDeviceSecret(secret);
    return this.transactions.run(async (tx, emit) => {
      const stock = await this.repo.findByDeviceId(tx, input.deviceId, true);
      if (!stock) throw fail('device.notRegistered');
      const providers = scopeIds(caller.scope);
      if (providers) {
        const added = await this.repo.addedBy(tx, stock.id);
        if (added && !providers.includes(added.providerId)) throw fail('device.notRegistered');
      }
      const rotated = stock.secretHash !== null;
      await this.repo.setSecret(tx, stock.id, secretHash, this.clock.now());
      emit({ type: DEVICE_SECRET_CHANGED, providerId: null, payload: { deviceIds: [stock.deviceId.toUpperCase()] } });
      await this.audit.byCaller(
        caller,
        ip,
        'deviceStock.secret',
        { type: 'deviceStock', id: stock.deviceId, providerId: null, detail: { rotated, generated } },
        tx,
      );
      return { deviceId: stock.deviceId, secret };
    });
  }

  /**
   * Registry entries with their state. Administrators limited by data permission see entries in
   * stock and those added by their providers, never another provider's devices.
   */
  async list(caller: Caller, q: StockListInput) {
    this.assertAdmin(caller);
    const { rows, total } = await this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      keyWord: q.keyWord,
      deviceType: q.deviceType,
      stockState: q.stockState,
      providerIds: scopeIds(caller.scope),
    });
    return {
      rows: rows.map(({ stock, providerId, providerName }) => ({
        deviceId: stock.deviceId,
        cipherId: stock.cipherId,
        deviceType: stock.typeCode,
        model: stock.model,
        imei: stock.imei,
        imei4g: stock.imei4g,
        iccid: stock.iccid,
        firmwareType: stock.firmwareType,
        batch: stock.batch,
        importTime: stock.importedAt.toISOString(),
        // Whether a secret is set and since when: never the secret's hash.
        hasSecret: stock.secretHash !== null,
        secretSetTime: stock.secretSetAt?.toISOString() ?? null,
        stockState: providerId === null ? ('in_stock' as const) : ('added' as const),
        providerId: isPlatformRole(caller.role) ? providerId : null,
        providerName: isPlatformRole(caller.role) ? providerName : null,
      })),
      total,
    };
  }

  /** Removes an entry loaded by mistake; only while no provider has added it. */
  async remove(caller: Caller, deviceId: string, ip: string): Promise<void> {
    this.assertAdmin(caller);
    await this.transactions.run(async (tx, emit) => {
      const stock = await this.repo.findByDeviceId(tx, deviceId, true);
      if (!stock) throw fail('device.notRegistered');
      if (await this.repo.addedBy(tx, stock.id)) throw fail('device.notInStock');
      await this.repo.remove(tx, stock.id);
      emit({ type: DEVICE_SECRET_CHANGED, providerId: null, payload: { deviceIds: [stock.deviceId.toUpperCase()] } });
      await this.audit.byCaller(
        caller,
        ip,
        'deviceStock.remove',
        { type: 'deviceStock', id: stock.deviceId, providerId: null, detail: { deviceType: stock.typeCode } },
        tx,
      );
    });
  }
}
