import type { MessageKey } from '@vigil/contract';

/** What the operator says about a device's connection. */
export type TelecomStatus = 'online' | 'offline' | 'unknown';

export interface TelecomDevice {
  /** Our plaintext device ID (the operator's device name). */
  deviceId: string;
  imei: string;
  iccid: string | null;
  name: string | null;
}

/**
 * An operator (telecom) IoT platform where NB-IoT and 4G devices are registered by IMEI.
 * Every method either succeeds or throws a TelecomError.
 */
export interface TelecomPlatform {
  /** Registers the device (idempotent by IMEI) and returns the operator's id for it. */
  register(device: TelecomDevice): Promise<{ thirdPartyId: string }>;
  /** The operator's view of the device; TelecomError 'not_found' when it is not registered there. */
  status(thirdPartyId: string): Promise<{ status: TelecomStatus }>;
  /** Removes the registration; an unknown id counts as removed. */
  remove(thirdPartyId: string): Promise<void>;
}

export type TelecomFailure = 'timeout' | 'unavailable' | 'unauthorized' | 'rejected' | 'bad_answer' | 'not_found';

export class TelecomError extends Error {
  override name = 'TelecomError';
  constructor(
    readonly kind: TelecomFailure,
    /** The operator's own words (rejections), shown to the user. */
    readonly reason = '',
  ) {
    super(reason ? `${kind}: ${reason}` : kind);
  }
}

/** The message a user reads for an operator failure. */
export const telecomMessage = (error: TelecomError): { key: MessageKey; params: Record<string, string> } => {
  switch (error.kind) {
    case 'timeout':
      return { key: 'telecom.timeout', params: {} };
    case 'unauthorized':
      return { key: 'telecom.unauthorized', params: {} };
    case 'rejected':
      return { key: 'telecom.rejected', params: { reason: error.reason } };
    case 'bad_answer':
      return { key: 'telecom.badAnswer', params: {} };
    case 'not_found':
      return { key: 'telecom.rejected', params: { reason: error.reason || 'not found' } };
    default:
      return { key: 'telecom.unavailable', params: {} };
  }
};
