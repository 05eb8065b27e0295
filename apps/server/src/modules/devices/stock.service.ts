import { DeviceStockRowInputSchema, isPlatformRole } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { fail, forbidden } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import { scopeIds } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { typeOf } from './device.policy.ts';
import { problemOfIssue, uniqueMessage, type DeviceRowProblem } from './row-problems.ts';
import { StockRepository } from './stock.repository.ts';

const STOCK_CONFLICTS = {
  device_stock_device_id: 'deviceStock.exists',
  device_stock_cipher_id: 'deviceStock.cipherExists',
} as const;

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
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  private assertAdmin(caller: Caller): void {
    if (caller.role !== 'SUPER_ROLE' && caller.role !== 'SENIOR_ROLE') throw forbidden();
  }

  /**
   * Adds registry entries inside `tx`, all or nothing: every row is checked first (format, catalogue
   * type and model, repeats within the list, entries already registered) and every problem is
   * returned; only a list without problems is written. Rows may be raw (a spreadsheet's cells);
   * each is validated with the contract's row schema.
   */
  async addMany(
    caller: Caller,
    rows: readonly unknown[],
    tx: Executor,
    ip = '',
  ): Promise<{ added: number; problems: DeviceRowProblem[] }> {
    this.assertAdmin(caller);
    const problems: DeviceRowProblem[] = [];
    const valid: { index: number; row: ReturnType<typeof DeviceStockRowInputSchema.parse> }[] = [];
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
          valid.map(({ row }) => ({
            deviceId: row.deviceId,
            cipherId: row.cipherId ?? null,
            typeCode: row.deviceType,
            model: typeOf(row.deviceType).model,
            imei: row.imei ?? null,
            imei4g: row.imei4g ?? null,
            iccid: row.iccid?.toUpperCase() ?? null,
            firmwareType: row.firmwareType ?? null,
            batch: row.batch || null,
            importedBy: caller.accountId,
            importedAt: now,
          })),
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
      { type: 'deviceStock', id: valid.length, providerId: null, detail: { count: valid.length, batches } },
      tx,
    );
    return { added: valid.length, problems };
  }

  private other(index: number) {
    return { other: index + 1, otherIndex: index };
  }

  /** The import call: one transaction; an empty list is refused. */
  async import(caller: Caller, rows: readonly unknown[], ip: string) {
    if (!rows.length) throw fail('deviceStock.empty');
    return this.db.transaction((tx) => this.addMany(caller, rows, tx, ip));
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
    await this.db.transaction(async (tx) => {
      const stock = await this.repo.findByDeviceId(tx, deviceId, true);
      if (!stock) throw fail('device.notRegistered');
      if (await this.repo.addedBy(tx, stock.id)) throw fail('device.notInStock');
      await this.repo.remove(tx, stock.id);
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
