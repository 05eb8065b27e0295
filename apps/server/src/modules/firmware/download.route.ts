import { createReadStream } from 'node:fs';
import { Status } from '@vigil/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../core/app-error.ts';
import { envelopeOf, languageOf } from '../../http/register-calls.ts';
import { IN_FLIGHT, type FirmwareRepository } from './firmware.repository.ts';
import type { PackageCache } from './package-cache.ts';
import { DOWNLOAD_PATH } from './rollout-driver.ts';

/** A single `bytes=` range: [start, end] inclusive, 'unsatisfiable', or null for the whole file. */
export const parseRange = (
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null => {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: answered with the whole file, as RFC 9110 allows.
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
};

/**
 * `GET /hardSoft/download?token=…`: a device's firmware download (docs/device-protocol.md,
 * "Firmware over the air"). Not a call of the API: its answer is the package's bytes, streamed
 * from this instance's verified copy, with range requests so a broken download resumes. The
 * token is the one the device's `ota` command carries: it names one device's upgrade and expires.
 */
export const registerFirmwareDownload = (
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; repo: FirmwareRepository; cache: PackageCache },
): void => {
  const refuse = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(404)
      .header('Cache-Control', 'no-store')
      .send(envelopeOf(new AppError(Status.FAILED, 'firmware.linkExpired', {}, 404), languageOf(request)));

  app.get(DOWNLOAD_PATH, async (request, reply) => {
    const token = (request.query as { token?: unknown }).token;
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) return refuse(request, reply);
    const found = await deps.repo.byToken(deps.db, token);
    const now = deps.clock.now();
    if (
      !found ||
      !found.upgrade.linkExpiresAt ||
      found.upgrade.linkExpiresAt <= now ||
      !IN_FLIGHT.includes(found.upgrade.state as (typeof IN_FLIGHT)[number])
    ) {
      return refuse(request, reply);
    }
    const { pkg, upgrade } = found;
    const file = await deps.cache.pathOf(pkg);
    const size = pkg.sizeBytes;
    const range = parseRange(request.headers.range, size);
    reply
      .header('Accept-Ranges', 'bytes')
      .header('ETag', `"${pkg.sha256}"`)
      .header('Cache-Control', 'no-store')
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="firmware-${pkg.id}.zip"`);
    if (range === 'unsatisfiable') return reply.code(416).header('Content-Range', `bytes */${size}`).send();
    // The device is downloading: shown at once, before its first progress report.
    if (upgrade.state === 'sent') {
      await deps.repo.moveUpgrade(deps.db, upgrade.id, ['sent'], { state: 'downloading', updatedAt: now });
    }
    if (range === null) {
      reply.header('Content-Length', String(size));
      return reply.send(createReadStream(file));
    }
    return reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', String(range.end - range.start + 1))
      .send(createReadStream(file, { start: range.start, end: range.end }));
  });
};
