import { createHash } from 'node:crypto';

/** What an `ota` command's params must hold (docs/device-protocol.md, "Firmware over the air"). */
export interface OtaOrder {
  version: string;
  url: string;
  size: number;
  md5: string;
  sha256?: string;
}

export const otaOrderOf = (params: Record<string, unknown>): OtaOrder | string => {
  const { version, url, size, md5, sha256 } = params;
  if (typeof version !== 'string' || !version) return 'version missing';
  if (typeof url !== 'string' || !url) return 'url missing';
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) return 'size missing';
  if (typeof md5 !== 'string' || !/^[0-9a-f]{32}$/.test(md5)) return 'md5 missing';
  return { version, url, size, md5, ...(typeof sha256 === 'string' ? { sha256 } : {}) };
};

export type OtaReport =
  | { state: 'downloading'; progress: number }
  | { state: 'verifying' }
  | { state: 'installing' }
  | { state: 'failed'; error: string };

export interface OtaDownloadOptions {
  /** The server's HTTP base the relative `url` is resolved against. */
  base: string;
  /** Called at about every 10 % of the download, and at each state. */
  report: (report: OtaReport) => void;
  /** Breaks the connection after this many bytes of each response (tests of resuming); unset: never. */
  breakAfterBytes?: number;
  /** Attempts before giving up (each resumes where the last stopped). Default 5. */
  attempts?: number;
  fetch?: typeof fetch;
}

/**
 * Downloads a firmware package the way a device should: in one go when it can, resuming with a
 * `Range` request from the last byte kept when the connection breaks, then checking size, MD5
 * and SHA-256 before anything is installed. Resolves with the bytes, or rejects with the reason
 * the device reports.
 */
export const downloadPackage = async (order: OtaOrder, o: OtaDownloadOptions): Promise<Uint8Array> => {
  const doFetch = o.fetch ?? fetch;
  const url = new URL(order.url, o.base).toString();
  const parts: Uint8Array[] = [];
  let received = 0;
  let reported = -10;
  const attempts = o.attempts ?? 5;
  for (let attempt = 1; received < order.size; attempt++) {
    if (attempt > attempts) throw new Error(`download broke off ${attempts} times at ${received} bytes`);
    const response = await doFetch(url, received ? { headers: { range: `bytes=${received}-` } } : {});
    if (response.status === 404) throw new Error('download address refused (expired?)');
    if (received && response.status !== 206) throw new Error(`resume refused: HTTP ${response.status}`);
    if (!received && response.status !== 200) throw new Error(`download refused: HTTP ${response.status}`);
    if (!response.body) throw new Error('download had no body');
    let thisResponse = 0;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let piece = value;
        if (o.breakAfterBytes !== undefined && thisResponse + piece.length > o.breakAfterBytes) {
          piece = piece.subarray(0, o.breakAfterBytes - thisResponse);
        }
        parts.push(piece);
        received += piece.length;
        thisResponse += piece.length;
        const progress = Math.floor((received * 100) / order.size);
        if (progress - reported >= 10) {
          reported = progress;
          o.report({ state: 'downloading', progress: Math.min(progress, 100) });
        }
        if (o.breakAfterBytes !== undefined && thisResponse >= o.breakAfterBytes) break;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
  o.report({ state: 'verifying' });
  const bytes = Buffer.concat(parts);
  if (bytes.length !== order.size) throw new Error(`size mismatch: ${bytes.length} of ${order.size}`);
  if (createHash('md5').update(bytes).digest('hex') !== order.md5) throw new Error('md5 mismatch');
  if (order.sha256 && createHash('sha256').update(bytes).digest('hex') !== order.sha256) {
    throw new Error('sha256 mismatch');
  }
  return bytes;
};
