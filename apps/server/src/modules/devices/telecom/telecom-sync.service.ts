import type { MessageKey, MessageParams } from '@vigil/contract';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/database.ts';
import { AppError, fail, notFound } from '../../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../../core/caller.ts';
import { listScope, scopeIds } from '../../../core/tenant.ts';
import { visibleDevice } from '../device-access.ts';
import { telecomImei } from '../device.policy.ts';
import { DeviceRepository, type DeviceRecord } from '../device.repository.ts';
import { TelecomError, telecomMessage, type TelecomPlatform, type TelecomStatus } from './telecom.ts';

export interface SyncResult {
  deviceId: string;
  thirdPartyId: string;
  thirdPartyStatus: TelecomStatus;
  thirdPartySyncTime: string;
}

export type RemovalOutcome =
  | { telecom: 'removed' | 'not_registered' | 'disabled' }
  | { telecom: 'failed'; key: MessageKey; params: MessageParams };

interface Cellular {
  device: DeviceRecord;
  imei: string | null;
  imei4g: string | null;
  iccid: string | null;
}

/** Devices synced at once by syncAll. */
const CONCURRENCY = 4;

/** Where the service tells the server's operator what to fix; the user's message names no setting. */
export type OperatorWarning = (message: string) => void;

const DISABLED_WARNING =
  'Telecom sync refused: TELECOM_API_URL (with TELECOM_APP_KEY) is not set, so devices cannot be registered on the operator IoT platform.';
const UNAUTHORIZED_WARNING =
  'Telecom sync refused by the operator IoT platform: it did not accept TELECOM_APP_KEY (check the key set for TELECOM_API_URL).';

/**
 * Registration of NB-IoT and 4G devices on the operator IoT platform. No database transaction is
 * held while the operator is asked; each answer is recorded as soon as it arrives (a registration
 * is never lost to a later timeout). Without a configured platform every call answers
 * telecom.disabled.
 */
export class TelecomSyncService {
  private readonly devices = new DeviceRepository();
  /** Operator warnings already given: each once per server run, not once per refused call. */
  private readonly warned = new Set<string>();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly telecom: TelecomPlatform | null,
    private readonly warn: OperatorWarning = (message) => console.warn(message),
  ) {}

  get enabled(): boolean {
    return this.telecom !== null;
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.warn(message);
  }

  private platform(): TelecomPlatform {
    if (!this.telecom) {
      this.warnOnce(DISABLED_WARNING);
      throw fail('telecom.disabled');
    }
    return this.telecom;
  }

  /** The user's message for an operator failure; a refused key is also the server operator's to fix. */
  private messageOf(error: TelecomError) {
    if (error.kind === 'unauthorized') this.warnOnce(UNAUTHORIZED_WARNING);
    return telecomMessage(error);
  }

  private asAppError(error: unknown): AppError {
    if (error instanceof TelecomError) {
      const { key, params } = this.messageOf(error);
      return fail(key, params);
    }
    throw error;
  }

  async syncOne(caller: Caller, deviceId: string): Promise<SyncResult> {
    const platform = this.platform();
    const device = await visibleDevice(this.devices, caller, deviceId, this.db);
    const stock = await this.devices.stockOf(this.db, device.stockId);
    return this.sync(platform, {
      device,
      imei: stock?.imei ?? null,
      imei4g: stock?.imei4g ?? null,
      iccid: stock?.iccid ?? null,
    });
  }

  async syncAll(caller: Caller, providerId: number | undefined) {
    const platform = this.platform();
    if (providerId !== undefined && !canSeeProvider(caller.scope, providerId)) throw notFound();
    const ids = providerId !== undefined ? [providerId] : scopeIds(listScope(caller));
    const rows = await this.devices.cellular(this.db, ids);
    const failed: { deviceId: string; key: MessageKey; params: MessageParams }[] = [];
    let synced = 0;
    let at = 0;
    const worker = async () => {
      while (at < rows.length) {
        const row = rows[at++];
        if (!row) break;
        try {
          await this.sync(platform, row);
          synced++;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          failed.push({ deviceId: row.device.deviceId, key: error.key, params: error.params });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
    failed.sort((a, b) => a.deviceId.localeCompare(b.deviceId));
    return { total: rows.length, synced, failed };
  }

  private async sync(platform: TelecomPlatform, row: Cellular): Promise<SyncResult> {
    const { device } = row;
    const imei = telecomImei(device.commMode, row);
    if (!imei) throw fail('telecom.notCellular');
    try {
      let thirdPartyId = device.thirdPartyId;
      let status: TelecomStatus | undefined;
      if (thirdPartyId) {
        try {
          status = (await platform.status(thirdPartyId)).status;
        } catch (error) {
          // Registered before but unknown to the operator now: register again.
          if (!(error instanceof TelecomError) || error.kind !== 'not_found') throw error;
          thirdPartyId = null;
        }
      }
      if (!thirdPartyId) {
        thirdPartyId = (
          await platform.register({ deviceId: device.deviceId, imei, iccid: row.iccid, name: device.name })
        ).thirdPartyId;
        const kept = await this.devices.setThirdParty(this.db, device.id, device.deviceId, {
          thirdPartyId,
          thirdPartyStatus: null,
        });
        if (!kept) throw fail('device.notFound');
        status = (await platform.status(thirdPartyId)).status;
      }
      const now = this.clock.now();
      const kept = await this.devices.setThirdParty(this.db, device.id, device.deviceId, {
        thirdPartyId,
        thirdPartyStatus: status ?? 'unknown',
        thirdPartySyncedAt: now,
      });
      if (!kept) throw fail('device.notFound');
      return {
        deviceId: device.deviceId,
        thirdPartyId,
        thirdPartyStatus: status ?? 'unknown',
        thirdPartySyncTime: now.toISOString(),
      };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw this.asAppError(error);
    }
  }

  /**
   * After a device left its provider (returned to stock): its operator registration is removed.
   * Failures are reported, not thrown — the device is already gone from the provider.
   */
  async removeRegistration(thirdPartyId: string | null): Promise<RemovalOutcome> {
    if (!thirdPartyId) return { telecom: 'not_registered' };
    if (!this.telecom) return { telecom: 'disabled' };
    try {
      await this.telecom.remove(thirdPartyId);
      return { telecom: 'removed' };
    } catch (error) {
      if (!(error instanceof TelecomError)) throw error;
      const { key, params } = this.messageOf(error);
      return { telecom: 'failed', key, params };
    }
  }
}
