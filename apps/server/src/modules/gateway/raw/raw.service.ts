import type { BinaryBody } from '@vigil/contract';
import type { Db, Executor } from '../../../db/database.ts';
import { fail, forbidden, notFound } from '../../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../../core/caller.ts';
import { scopeIds } from '../../../core/tenant.ts';
import type { AuditService } from '../../audit/audit.service.ts';
import { rawDayCsv, utcDay } from './raw-csv.ts';
import { RawDataRepository, type RawScope } from './raw.repository.ts';

export interface RawListInput {
  pageNum: number;
  pageSize: number;
  deviceId?: string | undefined;
  day?: string | undefined;
  providerId?: number | undefined;
}

/**
 * The original (raw) data of devices whose raw upload is on: listed per device and UTC day,
 * downloaded as CSV, deleted per day or for a whole device. For platform device administrators;
 * a row is seen by whoever sees the provider recorded on it (the one the device served then), so
 * an administrator limited by data permission sees only their providers' rows.
 */
export class RawDataService {
  readonly repo = new RawDataRepository();
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  private scopeOf(caller: Caller): RawScope {
    if (caller.role !== 'SUPER_ROLE' && caller.role !== 'SENIOR_ROLE') throw forbidden();
    return scopeIds(caller.scope);
  }

  /**
   * A device the caller may handle here: one of its visible devices, or one with raw rows it sees
   * (a device deleted or moved since keeps its rows until they expire). Anything else does not exist.
   */
  private async assertKnown(db: Executor, caller: Caller, deviceId: string, scope: RawScope): Promise<void> {
    if (await this.repo.anyVisible(db, deviceId, scope)) return;
    const providerId = await this.repo.deviceProvider(db, deviceId);
    if (providerId === undefined || !canSeeProvider(caller.scope, providerId))
      throw fail('device.notFound').on('deviceId');
  }

  async list(caller: Caller, q: RawListInput) {
    const scope = this.scopeOf(caller);
    if (q.providerId !== undefined && !canSeeProvider(caller.scope, q.providerId)) {
      throw notFound().on('providerId');
    }
    return this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      deviceId: q.deviceId || undefined,
      day: q.day ? utcDay(q.day) : undefined,
      providerId: q.providerId,
      scope,
    });
  }

  /** One device and UTC day as CSV (at most 1,440 stored minutes), named `<deviceId>-<day>.csv`. */
  async download(caller: Caller, deviceId: string, day: string): Promise<BinaryBody> {
    const scope = this.scopeOf(caller);
    await this.assertKnown(this.db, caller, deviceId, scope);
    const minutes = await this.repo.minutes(this.db, deviceId, utcDay(day), scope);
    return {
      contentType: 'text/csv; charset=utf-8',
      bytes: new TextEncoder().encode(rawDayCsv(minutes)),
      filename: `${deviceId}-${day}.csv`,
    };
  }

  /** Deletes one device-day (`day`) or all of a device's raw data; audited per provider whose rows went. */
  async remove(caller: Caller, deviceId: string, day: string | undefined, ip: string): Promise<number> {
    const scope = this.scopeOf(caller);
    return this.db.transaction(async (tx) => {
      await this.assertKnown(tx, caller, deviceId, scope);
      const byProvider = await this.repo.remove(tx, deviceId, day ? utcDay(day) : undefined, scope);
      let deleted = 0;
      for (const [providerId, count] of byProvider) {
        deleted += count;
        await this.audit.byCaller(
          caller,
          ip,
          day ? 'originData.delete' : 'originData.deleteAll',
          { type: 'device', id: deviceId, providerId, detail: { ...(day ? { day } : {}), deleted: count } },
          tx,
        );
      }
      return deleted;
    });
  }
}
