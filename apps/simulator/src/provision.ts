import {
  adminLogin,
  ApiError,
  createClient,
  deviceCalls,
  DEVICE_STOCK_IMPORT_MAX,
  failureData,
  type ApiClient,
  type DeviceStockRowInput,
} from '@vigil/contract';
import type { DevicePlan, FleetPlan } from './catalogue.ts';
import type { Secrets } from './secrets.ts';

/**
 * Registers a fleet through the HTTP API, as a platform administrator would: logs in, loads the
 * device IDs into the registry (`/device/stock/import`, with each connecting device's secret),
 * sets the secret of devices registered before (`/device/stock/setSecret`, so a re-run with new
 * secrets still connects), and optionally adds them to a provider (hosts with `/he/addHost`,
 * security sensors paired under their host with `/he/insertDevice`, every other device with
 * `/device/insertDevice`): the broker lets a host publish for its sub-devices only once paired.
 */

export interface ProvisionOptions {
  /** The API's base URL, e.g. http://localhost:8080. */
  api: string;
  adminUser: string;
  adminPassword: string;
  /** A client already signed in as an administrator (the server's own demo); skips the login. */
  client?: ApiClient;
  /** Also add the devices to this provider. */
  providerId?: number;
  /** Set the secret of devices already registered to this run's (default true); false leaves them. */
  resetSecrets?: boolean;
  /** Registry batch label. Default "simulator". */
  batch?: string;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface ProvisionResult {
  /** Registry entries added. */
  imported: number;
  /** Device IDs already in the registry. */
  alreadyRegistered: string[];
  /** Of those, the ones whose secret was set to this run's. */
  secretsSet: number;
  /** Devices added to the provider (hosts and sub-devices included). */
  added: number;
  /** Devices the provider already had. */
  alreadyAdded: string[];
}

/** A registry row, with the device's secret (the registry's optional `secret` field). */
type StockRow = DeviceStockRowInput;

/**
 * The registry rows of a fleet: every device with its type and model, and the secret of those
 * that connect (sub-devices have none). What `/device/stock/import` takes, and what a server
 * registering a demo fleet itself loads.
 */
export const stockRowsOf = (plan: FleetPlan, secrets: Secrets, batch = 'simulator'): StockRow[] =>
  plan.devices.map((d) => ({
    deviceId: d.id,
    deviceType: d.type.code,
    model: d.type.model,
    batch,
    ...(secrets[d.id] ? { secret: secrets[d.id] } : {}),
  }));

const describe = (error: unknown): string =>
  error instanceof ApiError ? `${error.msgKey ?? error.status}: ${error.message}` : String(error);

/** Logs in as an administrator and answers an API client carrying the session. */
export const adminClient = async (options: ProvisionOptions): Promise<ApiClient> => {
  let token: string | null = null;
  const client = createClient({
    baseUrl: options.api.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    getToken: () => token,
  });
  let session;
  try {
    session = await client.call(adminLogin, {
      userName: options.adminUser,
      passWord: options.adminPassword,
      from: 'PC',
      rsa: false,
    });
  } catch (error) {
    throw new Error(`login as ${options.adminUser} failed: ${describe(error)}`, { cause: error });
  }
  if (session.mustChangePassword) {
    throw new Error(`${options.adminUser} still has a generated password: change it in the console first`);
  }
  token = session.token;
  return client;
};

/** Loads rows into the registry; rows already registered are reported and skipped. */
const importRows = async (
  client: ApiClient,
  rows: StockRow[],
  log: (line: string) => void,
): Promise<{ imported: number; existing: string[] }> => {
  let imported = 0;
  const existing: string[] = [];
  for (let i = 0; i < rows.length; i += DEVICE_STOCK_IMPORT_MAX) {
    let chunk = rows.slice(i, i + DEVICE_STOCK_IMPORT_MAX);
    for (let attempt = 0; attempt < 2 && chunk.length; attempt++) {
      try {
        const { added } = await client.call(deviceCalls.deviceStockImport, { rows: chunk });
        imported += added;
        break;
      } catch (error) {
        const problems = failureData(error, 'deviceStock.rowErrors')?.problems;
        if (!problems) throw new Error(`registry import failed: ${describe(error)}`, { cause: error });
        const others = problems.filter((p) => p.msgKey !== 'deviceStock.exists');
        if (others.length || attempt > 0) {
          const listed = (others.length ? others : problems)
            .slice(0, 10)
            .map((p) => `${chunk[p.index]?.deviceId ?? p.index} ${p.field}: ${p.msg}`);
          throw new Error(`registry import refused:\n  ${listed.join('\n  ')}`, { cause: error });
        }
        const taken = new Set(problems.map((p) => p.index));
        existing.push(...chunk.filter((_, index) => taken.has(index)).map((r) => r.deviceId));
        chunk = chunk.filter((_, index) => !taken.has(index));
      }
    }
  }
  if (existing.length) {
    log(
      `${existing.length} device(s) already registered: ${existing.slice(0, 5).join(', ')}${existing.length > 5 ? ', …' : ''}`,
    );
  }
  return { imported, existing };
};

/** Runs `work` over `items`, `limit` at a time. */
const pool = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};

const addToProvider = async (
  client: ApiClient,
  devices: readonly DevicePlan[],
  providerId: number,
): Promise<{ added: number; already: string[] }> => {
  let added = 0;
  const already: string[] = [];
  const failures: string[] = [];
  const addOne = async (d: DevicePlan) => {
    try {
      if (d.kind === 'gateway_host') {
        await client.call(deviceCalls.heAddHost, { deviceId: d.id, providerId });
      } else if (d.hostId) {
        await client.call(deviceCalls.heInsertDevice, {
          deviceId: d.id,
          deviceType: d.type.code,
          hostDeviceId: d.hostId,
        });
      } else {
        await client.call(deviceCalls.insertDevice, { deviceId: d.id, deviceType: d.type.code, providerId });
      }
      added++;
    } catch (error) {
      if (error instanceof ApiError && error.msgKey === 'device.alreadyAdded') already.push(d.id);
      else failures.push(`${d.id}: ${describe(error)}`);
    }
  };
  // Hosts first: a sub-device is paired under a host the provider already has.
  await pool(
    devices.filter((d) => !d.hostId),
    4,
    addOne,
  );
  await pool(
    devices.filter((d) => d.hostId),
    4,
    addOne,
  );
  if (failures.length) {
    throw new Error(`adding devices to provider ${providerId} failed:\n  ${failures.slice(0, 10).join('\n  ')}`);
  }
  return { added, already };
};

export const provisionFleet = async (
  plan: FleetPlan,
  secrets: Secrets,
  options: ProvisionOptions,
): Promise<ProvisionResult> => {
  const log = options.log ?? (() => {});
  const client = options.client ?? (await adminClient(options));
  const rows = stockRowsOf(plan, secrets, options.batch);
  const { imported, existing } = await importRows(client, rows, log);
  log(`registry: ${imported} added`);
  let secretsSet = 0;
  if (options.resetSecrets ?? true) {
    const failures: string[] = [];
    await pool(
      existing.filter((id) => secrets[id]),
      4,
      async (deviceId) => {
        try {
          await client.call(deviceCalls.deviceStockSetSecret, { deviceId, secret: secrets[deviceId] });
          secretsSet++;
        } catch (error) {
          failures.push(`${deviceId}: ${describe(error)}`);
        }
      },
    );
    if (failures.length) throw new Error(`setting secrets failed:\n  ${failures.slice(0, 10).join('\n  ')}`);
    if (secretsSet) log(`secrets set for ${secretsSet} device(s) registered before`);
  }
  let added = 0;
  let alreadyAdded: string[] = [];
  if (options.providerId !== undefined) {
    const result = await addToProvider(client, plan.devices, options.providerId);
    added = result.added;
    alreadyAdded = result.already;
    log(`provider ${options.providerId}: ${added} added, ${alreadyAdded.length} already there`);
  }
  return { imported, alreadyRegistered: existing, secretsSet, added, alreadyAdded };
};
