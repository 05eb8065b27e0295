import type { Endpoint, EndpointResult } from '@vigil/contract/browser';

/**
 * A success envelope typed by the call it answers, for test fakes: the compiler asks for a whole
 * result, and the fake's checkFakeAnswer (contract-fakes.ts) refuses anything else at run time.
 */
export const okFor = <E extends Endpoint>(_call: E, data: EndpointResult<E>) => ({
  status: 200,
  msg: 'ok',
  data: data as unknown,
});

/** One page of a list answer, keeping the rows' type (so okFor checks them). */
export const pageOf = <T>(rows: T[], total = rows.length) => ({ rows, total, pageNum: 1, pageSize: 10 });
