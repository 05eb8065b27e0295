import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { devices, deviceStock, providers } from '../../db/schema.ts';
import { containsPattern } from './device.policy.ts';

export type StockRow = typeof deviceStock.$inferSelect;

export interface StockListQuery {
  offset: number;
  limit: number;
  keyWord?: string | undefined;
  deviceType?: number | undefined;
  stockState?: 'in_stock' | 'added' | undefined;
  /** Providers whose added entries are shown (entries in stock always are); null: every provider. */
  providerIds: readonly number[] | null;
}

/** The device registry: the only SQL on device_stock. */
export class StockRepository {
  async findByDeviceId(db: Executor, deviceId: string, lock = false): Promise<StockRow | undefined> {
    const query = db.select().from(deviceStock).where(eq(deviceStock.deviceId, deviceId));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  /** The type codes the registry holds, each once. */
  async typeCodes(db: Executor): Promise<number[]> {
    const rows = await db.selectDistinct({ typeCode: deviceStock.typeCode }).from(deviceStock);
    return rows.map((r) => r.typeCode);
  }

  async findById(db: Executor, id: number): Promise<StockRow | undefined> {
    const [row] = await db.select().from(deviceStock).where(eq(deviceStock.id, id));
    return row;
  }

  /** Which of the device IDs and cipher IDs the registry already holds. */
  async existing(
    db: Executor,
    deviceIds: readonly string[],
    cipherIds: readonly string[],
  ): Promise<{ deviceIds: Set<string>; cipherIds: Set<string> }> {
    const conditions: SQL[] = [];
    if (deviceIds.length) conditions.push(inArray(deviceStock.deviceId, [...deviceIds]));
    if (cipherIds.length) conditions.push(inArray(deviceStock.cipherId, [...cipherIds]));
    if (!conditions.length) return { deviceIds: new Set(), cipherIds: new Set() };
    const rows = await db
      .select({ deviceId: deviceStock.deviceId, cipherId: deviceStock.cipherId })
      .from(deviceStock)
      .where(or(...conditions));
    return {
      deviceIds: new Set(rows.map((r) => r.deviceId)),
      cipherIds: new Set(rows.map((r) => r.cipherId).filter((c): c is string => c !== null)),
    };
  }

  async insertMany(db: Executor, values: (typeof deviceStock.$inferInsert)[]): Promise<void> {
    for (let at = 0; at < values.length; at += 500) {
      await db.insert(deviceStock).values(values.slice(at, at + 500));
    }
  }

  /** Replaces an entry's secret hash (the caller holds the row). */
  async setSecret(db: Executor, id: number, secretHash: string, at: Date): Promise<void> {
    await db.update(deviceStock).set({ secretHash, secretSetAt: at }).where(eq(deviceStock.id, id));
  }

  async remove(db: Executor, id: number): Promise<void> {
    await db.delete(deviceStock).where(eq(deviceStock.id, id));
  }

  /** Whether a provider has added the entry (locks nothing: the caller holds the registry row). */
  async addedBy(db: Executor, stockId: number): Promise<{ providerId: number } | undefined> {
    const [row] = await db.select({ providerId: devices.providerId }).from(devices).where(eq(devices.stockId, stockId));
    return row;
  }

  async page(db: Executor, q: StockListQuery) {
    const conditions: (SQL | undefined)[] = [];
    if (q.providerIds) {
      const visible = q.providerIds.length ? inArray(devices.providerId, [...q.providerIds]) : undefined;
      conditions.push(visible ? or(isNull(devices.id), visible) : isNull(devices.id));
    }
    if (q.keyWord) {
      const like = containsPattern(q.keyWord);
      conditions.push(
        or(
          ilike(deviceStock.deviceId, like),
          ilike(deviceStock.cipherId, like),
          ilike(deviceStock.imei, like),
          ilike(deviceStock.imei4g, like),
          ilike(deviceStock.iccid, like),
          ilike(deviceStock.batch, like),
        ),
      );
    }
    if (q.deviceType !== undefined) conditions.push(eq(deviceStock.typeCode, q.deviceType));
    if (q.stockState === 'in_stock') conditions.push(isNull(devices.id));
    if (q.stockState === 'added') conditions.push(isNotNull(devices.id));
    const where = and(...conditions);
    const rows = await db
      .select({ stock: deviceStock, providerId: devices.providerId, providerName: providers.name })
      .from(deviceStock)
      .leftJoin(devices, eq(devices.stockId, deviceStock.id))
      .leftJoin(providers, eq(providers.id, devices.providerId))
      .where(where)
      .orderBy(desc(deviceStock.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db
      .select({ n: count() })
      .from(deviceStock)
      .leftJoin(devices, eq(devices.stockId, deviceStock.id))
      .where(where);
    return { rows, total: total?.n ?? 0 };
  }
}
