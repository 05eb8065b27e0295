import { defineCall } from './call.ts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertDeclaredAnswer, assertDeclaredEnvelope, assertDeclaredFailure, undeclaredKeys } from './answer-check.ts';

const rooms = defineCall({
  method: 'GET',
  path: '/test/rooms',
  auth: 'session',
  input: 'query',
  request: z.object({}),
  result: z.object({ rows: z.array(z.object({ id: z.number(), name: z.string(), note: z.string().nullable() })) }),
  summary: 'test',
  tag: 'test',
});

describe('answer check', () => {
  it('passes an answer that is exactly what the call declares', () => {
    expect(() => assertDeclaredAnswer(rooms, { rows: [{ id: 1, name: 'A', note: null }] })).not.toThrow();
  });

  it('names an undeclared key however deep it sits', () => {
    expect(() => assertDeclaredAnswer(rooms, { rows: [{ id: 1, name: 'A', note: null, roomId: 7 }] })).toThrow(
      '/test/rooms answered keys its schema does not declare: data.rows[0].roomId',
    );
    expect(undeclaredKeys({ a: { b: 1, c: 2 } }, { a: { b: 1 } })).toEqual(['data.a.c']);
  });

  it('refuses a value of the wrong shape', () => {
    expect(() => assertDeclaredAnswer(rooms, { rows: [{ id: '1', name: 'A', note: null }] })).toThrow(
      /\/test\/rooms answered what its schema refuses: rows\.0\.id/,
    );
  });

  it('passes a failure without data, and one with the data its key declares', () => {
    expect(() => assertDeclaredFailure(rooms, 'no_permission', null)).not.toThrow();
    expect(() => assertDeclaredFailure(rooms, 'resident.sameName', { existingIds: [3] })).not.toThrow();
  });

  it('refuses failure data under an undeclared key, of the wrong shape, or with extra keys', () => {
    expect(() => assertDeclaredFailure(rooms, 'no_permission', { why: 'x' })).toThrow(
      '/test/rooms failed with no_permission and data that failures.ts does not declare',
    );
    expect(() => assertDeclaredFailure(rooms, 'resident.sameName', { existingIds: ['3'] })).toThrow(/refuses/);
    expect(() => assertDeclaredFailure(rooms, 'resident.sameName', { existingIds: [3], names: [] })).toThrow(
      'data.names',
    );
  });

  it('checks a fake envelope by path and refuses a path the contract does not have', () => {
    expect(() =>
      assertDeclaredEnvelope('/system/platformName/get', { status: 200, data: { platformName: 'V', logoUrl: null } }),
    ).not.toThrow();
    expect(() =>
      assertDeclaredEnvelope('/system/platformName/get', { status: 200, data: { platformName: 'V' } }),
    ).toThrow(/logoUrl/);
    expect(() => assertDeclaredEnvelope('/system/nothing', { status: 200, data: null })).toThrow(
      'a fake answered /system/nothing, which the contract does not declare',
    );
  });
});
