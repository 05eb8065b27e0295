import * as endpoints from '@vigil/contract/browser';
import {
  DATA_CHANGE_TOUCHES,
  FRAME_TOUCHES,
  type CallName,
  type DataChange,
  type Endpoint,
  type EndpointRequest,
  type EndpointResult,
} from '@vigil/contract/browser';
import { useQuery, type QueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { api } from './client.ts';

/**
 * A call's query key: its path first, then its input (or the screen's view it was made from).
 * Every answer of one call shares the prefix, so whatever makes a call's answers stale reloads
 * all of them by the path alone.
 */
export const callKey = (endpoint: Endpoint, input?: unknown): readonly unknown[] =>
  input === undefined ? [endpoint.path] : [endpoint.path, input];

type CallQueryOptions<E extends Endpoint, T> = Omit<
  UseQueryOptions<EndpointResult<E>, Error, T, readonly unknown[]>,
  'queryKey' | 'queryFn'
>;

/** A call's answer as a query, keyed by `callKey`. */
export const useCall = <E extends Endpoint, T = EndpointResult<E>>(
  endpoint: E,
  input: EndpointRequest<E>,
  options: CallQueryOptions<E, T> = {},
) =>
  useQuery({
    queryKey: callKey(endpoint, input),
    queryFn: () => api(endpoint, input),
    ...options,
  });

const endpointOf = (name: CallName): Endpoint => (endpoints as unknown as Record<CallName, Endpoint>)[name];

/** Reloads every answer of the named calls. */
export const reloadCalls = (client: QueryClient, names: readonly CallName[]): Promise<void> =>
  Promise.all(names.map((name) => client.invalidateQueries({ queryKey: [endpointOf(name).path] }))).then(
    () => undefined,
  );

/** Reloads what a pushed frame makes stale (the contract's FRAME_TOUCHES / DATA_CHANGE_TOUCHES). */
export const reloadForFrame = (client: QueryClient, frame: { path: string; data?: unknown }): Promise<void> => {
  if (frame.path === '/dataChange') {
    const what = (frame.data as { what?: DataChange } | undefined)?.what;
    return what && what in DATA_CHANGE_TOUCHES ? reloadCalls(client, DATA_CHANGE_TOUCHES[what]) : Promise.resolve();
  }
  const names = (FRAME_TOUCHES as Record<string, readonly CallName[]>)[frame.path];
  return names ? reloadCalls(client, names) : Promise.resolve();
};
