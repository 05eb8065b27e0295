import { TelecomError, type TelecomDevice, type TelecomPlatform, type TelecomStatus } from './telecom.ts';

export interface HttpTelecomOptions {
  /** API root, e.g. https://iot.operator.example/api (devices live under /devices). */
  url: string;
  /** Sent as `Authorization: Bearer <appKey>`. */
  appKey: string;
  /** Whole request, answer included. */
  timeoutMs: number;
}

/** Longest operator message passed on to users. */
const REASON_MAX = 200;

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

const reasonOf = (body: unknown): string => {
  if (body && typeof body === 'object') {
    const { message, code } = body as { message?: unknown; code?: unknown };
    const text = typeof message === 'string' ? message : typeof code === 'string' ? code : '';
    // Printable text only: the operator's words end up in a localised message.
    return text.replace(CONTROL, ' ').trim().slice(0, REASON_MAX);
  }
  return '';
};

/**
 * The operator IoT platform over HTTP, JSON in and out:
 *
 *  - `POST {url}/devices` `{deviceName, imei, iccid?, label?}` → 200/201 `{deviceId}`;
 *    409 `{deviceId}` when the IMEI is registered already (taken as success);
 *  - `GET {url}/devices/{id}` → `{deviceId, status}` (`ONLINE`/`OFFLINE`, any case; anything else is unknown);
 *  - `DELETE {url}/devices/{id}` → 200/204 (404: already gone).
 *
 * Errors: 401/403 unauthorized, 404 not_found, other 4xx rejected (with the operator's `message`),
 * 5xx and network failures unavailable, no answer within the timeout `timeout`, an unreadable
 * 2xx body bad_answer.
 */
export class HttpTelecomPlatform implements TelecomPlatform {
  private readonly base: string;
  constructor(private readonly options: HttpTelecomOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  private async request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const res = await fetch(`${this.base}${path}`, {
        method,
        signal,
        headers: {
          authorization: `Bearer ${this.options.appKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: unknown = null;
      if (text) {
        try {
          json = JSON.parse(text);
        } catch {
          if (res.ok) throw new TelecomError('bad_answer');
        }
      }
      return { status: res.status, json };
    } catch (error) {
      if (error instanceof TelecomError) throw error;
      if (signal.aborted) throw new TelecomError('timeout');
      throw new TelecomError('unavailable');
    }
  }

  private fail(status: number, json: unknown): never {
    if (status === 401 || status === 403) throw new TelecomError('unauthorized');
    if (status === 404) throw new TelecomError('not_found', reasonOf(json));
    if (status >= 400 && status < 500) throw new TelecomError('rejected', reasonOf(json) || `HTTP ${status}`);
    throw new TelecomError('unavailable');
  }

  private idOf(json: unknown): string {
    const id = (json as { deviceId?: unknown } | null)?.deviceId;
    if (typeof id === 'string' && id.length > 0 && id.length <= 128) return id;
    if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id);
    throw new TelecomError('bad_answer');
  }

  async register(device: TelecomDevice): Promise<{ thirdPartyId: string }> {
    const { status, json } = await this.request('POST', '/devices', {
      deviceName: device.deviceId,
      imei: device.imei,
      ...(device.iccid ? { iccid: device.iccid } : {}),
      ...(device.name ? { label: device.name } : {}),
    });
    if (status === 200 || status === 201 || status === 409) return { thirdPartyId: this.idOf(json) };
    return this.fail(status, json);
  }

  async status(thirdPartyId: string): Promise<{ status: TelecomStatus }> {
    const { status, json } = await this.request('GET', `/devices/${encodeURIComponent(thirdPartyId)}`);
    if (status !== 200) return this.fail(status, json);
    const word = (json as { status?: unknown } | null)?.status;
    if (typeof word !== 'string') throw new TelecomError('bad_answer');
    const lower = word.toLowerCase();
    return { status: lower === 'online' ? 'online' : lower === 'offline' ? 'offline' : 'unknown' };
  }

  async remove(thirdPartyId: string): Promise<void> {
    const { status, json } = await this.request('DELETE', `/devices/${encodeURIComponent(thirdPartyId)}`);
    if (status === 200 || status === 204 || status === 404) return;
    this.fail(status, json);
  }
}
