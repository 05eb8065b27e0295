import { describe, expect, it } from 'vitest';
import { calls } from './catalogue.ts';
import { MESSAGE_FIELDS } from './message-fields.ts';
import { isMessageKey } from './messages/index.ts';
import { buildOpenApi } from './openapi.ts';

type Operation = { parameters?: { name: string; in: string }[] };

describe('creating calls and the Idempotency-Key', () => {
  const creating = Object.entries(calls).filter(([, call]) => call.creates);
  const doc = buildOpenApi('test') as { paths: Record<string, Record<string, Operation>> };
  const operation = (path: string, method: string) => doc.paths[path]?.[method.toLowerCase()];

  it('flags the calls that create records (every insert, batch add and import)', () => {
    const paths = creating.map(([, call]) => call.path);
    for (const path of ['/provider/insertProvider', '/insertUser', '/area/insertArea', '/community/insertCommunity']) {
      expect(paths).toContain(path);
    }
    expect(paths).toContain('/nursing/insertNursing');
    expect(paths).toContain('/userManagement/batchAdd');
    // Reads are never flagged.
    expect(creating.every(([, call]) => call.method === 'POST')).toBe(true);
  });

  it('documents the header on each of them in OpenAPI, and on no other call', () => {
    for (const [name, call] of Object.entries(calls)) {
      const header = operation(call.path, call.method)?.parameters?.find((p) => p.name === 'Idempotency-Key');
      expect(Boolean(header), name).toBe(Boolean(call.creates));
      if (header) expect(header.in).toBe('header');
    }
  });

  it('names a field only for message keys that exist', () => {
    for (const key of Object.keys(MESSAGE_FIELDS)) expect(isMessageKey(key), key).toBe(true);
  });
});
