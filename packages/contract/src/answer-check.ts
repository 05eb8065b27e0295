import type { z } from 'zod';
import type { CallDef } from './call.ts';
import { calls } from './catalogue.ts';
import { FAILURE_DATA, isFailureKey } from './failures.ts';

/**
 * Paths of keys in `raw` that the schema did not keep in `parsed`: zod objects drop keys they do
 * not declare, so a key the server sends but the contract does not name shows up here.
 */
export const undeclaredKeys = (raw: unknown, parsed: unknown, at = 'data'): string[] => {
  if (Array.isArray(raw)) {
    if (!Array.isArray(parsed)) return [];
    return raw.flatMap((item, index) => undeclaredKeys(item, parsed[index], `${at}[${index}]`));
  }
  if (raw === null || typeof raw !== 'object') return [];
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  const kept = parsed as Record<string, unknown>;
  return Object.entries(raw as Record<string, unknown>).flatMap(([key, value]) =>
    key in kept ? undeclaredKeys(value, kept[key], `${at}.${key}`) : [`${at}.${key}`],
  );
};

const assertShape = (what: string, schema: z.ZodType, data: unknown): void => {
  const result = schema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${what} what its schema refuses: ${issues}`);
  }
  const extra = undeclaredKeys(data, result.data);
  if (extra.length) throw new Error(`${what} keys its schema does not declare: ${extra.slice(0, 10).join(', ')}`);
};

/**
 * Test support (server harness, console fakes): fails when an answer is not what the contract
 * declares. Not for production code paths: it parses every answer.
 *
 * Fails when a successful answer is not what the call declares: a value of the wrong shape, or a
 * key the contract does not name (clients generated from the contract would never see it, and it
 * may be a leak). Every answer the test harness receives goes through this.
 */
export const assertDeclaredAnswer = (call: CallDef, data: unknown): void =>
  assertShape(`${call.path} answered`, call.result, data);

/** Fails when a failure carries `data` that failures.ts does not declare for its message key. */
export const assertDeclaredFailure = (call: CallDef, msgKey: string | undefined, data: unknown): void => {
  if (data === null || data === undefined) return;
  if (!isFailureKey(msgKey)) {
    throw new Error(`${call.path} failed with ${msgKey ?? 'no key'} and data that failures.ts does not declare`);
  }
  assertShape(`${call.path} failed with ${msgKey} and data`, FAILURE_DATA[msgKey], data);
};

const callsByPath = new Map<string, CallDef>(Object.values(calls as Record<string, CallDef>).map((c) => [c.path, c]));

/**
 * For test fakes that answer by path: checks an envelope against the call at `path` (success:
 * its result; failure: its message key's data). Unknown paths fail, so a fake cannot answer a
 * call the contract does not have.
 */
export const assertDeclaredEnvelope = (
  path: string,
  envelope: { status: number; msgKey?: string | undefined; data: unknown },
): void => {
  const call = callsByPath.get(path);
  if (!call) throw new Error(`a fake answered ${path}, which the contract does not declare`);
  if (call.produces === 'binary' && envelope.status === 200) return;
  if (envelope.status === 200) assertDeclaredAnswer(call, envelope.data);
  else assertDeclaredFailure(call, envelope.msgKey, envelope.data);
};
