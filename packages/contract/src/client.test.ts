import { describe, expect, it } from 'vitest';
import { ApiError, createClient, filenameOf } from './client.ts';
import type { Endpoint } from './call.ts';

const exportCall: Endpoint<{ id: number }, null> = { method: 'GET', path: '/x/export', input: 'query' };
const listCall: Endpoint<{ id: number }, { n: number }> = { method: 'POST', path: '/x/list', input: 'json' };

const clientAnswering = (response: () => Response) =>
  createClient({
    baseUrl: 'http://api',
    fetch: async () => response(),
    getToken: () => 't',
    getLanguage: () => 'en-US',
  });

describe('typed client', () => {
  it('reads the UTF-8 file name of a download, else the plain one', () => {
    expect(filenameOf(`attachment; filename="___.xlsx"; filename*=UTF-8''${encodeURIComponent('住户.xlsx')}`)).toBe(
      '住户.xlsx',
    );
    expect(filenameOf('attachment; filename="beds.xlsx"')).toBe('beds.xlsx');
    expect(filenameOf(null)).toBeNull();
    expect(filenameOf("attachment; filename*=UTF-8''%E0%A4%A")).toBeNull();
  });

  it('downloads bytes with progress, and turns a JSON refusal into ApiError with its data', async () => {
    const bytes = new Uint8Array(5000).fill(7);
    const progress: number[] = [];
    const file = await clientAnswering(
      () =>
        new Response(bytes, {
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': '5000' },
        }),
    ).download(exportCall, { id: 1 }, (received, total) => {
      expect(total).toBe(5000);
      progress.push(received);
    });
    expect(file.bytes).toEqual(bytes);
    expect(progress.at(-1)).toBe(5000);

    const refusal = clientAnswering(() =>
      Response.json({ status: 300, msg: 'nope', data: null, msgKey: 'no_permission' }),
    ).download(exportCall, { id: 1 });
    await expect(refusal).rejects.toMatchObject({ status: 300, msgKey: 'no_permission' });
  });

  it('keeps the data of a failed call (a refused import lists its problems)', async () => {
    const problems = [{ row: 3, column: 'Name', reason: 'is required' }];
    const call = clientAnswering(() =>
      Response.json({ status: 400, msg: '1 problem', data: { problems }, msgKey: 'import.rowErrors' }),
    ).call(listCall, { id: 1 });
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toMatchObject({ data: { problems } });
  });

  it('keeps the field a refusal names', async () => {
    const call = clientAnswering(() =>
      Response.json({ status: 300, msg: 'taken', data: null, msgKey: 'account.exists', field: 'userName' }),
    ).call(listCall, { id: 1 });
    await expect(call).rejects.toMatchObject({ msgKey: 'account.exists', field: 'userName' });
  });

  it('sends a fresh Idempotency-Key with each request of a creating call, the same one on its retry', async () => {
    const createCall: Endpoint<{ id: number }, null> = { method: 'POST', path: '/x/add', input: 'json', creates: true };
    const seen: (string | null)[] = [];
    let failNext = false;
    const client = createClient({
      baseUrl: 'http://api',
      fetch: async (_url, init) => {
        seen.push(new Headers(init?.headers).get('Idempotency-Key'));
        if (failNext) {
          failNext = false;
          throw new TypeError('network down');
        }
        return Response.json({ status: 200, msg: 'ok', data: null });
      },
    });
    await client.call(createCall, { id: 1 });
    await client.call(createCall, { id: 1 });
    failNext = true;
    await client.call(createCall, { id: 1 });
    await client.call(listCall, { id: 1 });
    expect(seen).toHaveLength(5);
    const [first, second, lost, retried, list] = seen;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
    expect(retried).toBe(lost);
    expect(new Set([first, second, lost]).size).toBe(3);
    expect(list).toBeNull();
  });
});
