import type { LiveResident, LiveVitals } from '@vigil/contract/browser';
import { createContext, useContext, useEffect, useId, useMemo, useRef, useSyncExternalStore } from 'react';
import { VitalsStore, type PushedVitals } from './vitals-store.ts';

/** The live socket's vitals (provided by LiveAlarms); outside it, a store nothing feeds. */
export const LiveVitalsContext = createContext<VitalsStore>(new VitalsStore());

/**
 * Watches these residents' vitals: the live socket follows them while the caller is mounted.
 * Returns the latest pushed vitals by resident (only those pushed since they were followed).
 */
export const useLiveVitals = (userIds: readonly number[]): ReadonlyMap<number, PushedVitals> => {
  const store = useContext(LiveVitalsContext);
  const consumer = useId();
  const key = [...new Set(userIds)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    store.want(consumer, key ? key.split(',').map(Number) : []);
    return () => store.drop(consumer);
  }, [store, consumer, key]);
  return useSyncExternalStore(store.subscribe, store.snapshot);
};

/** Calls `listener` with every `/vitalsNotify` frame's rows while mounted. */
export const useVitalsFrames = (listener: (rows: readonly LiveVitals[]) => void): void => {
  const store = useContext(LiveVitalsContext);
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => store.onFrame((rows) => latest.current(rows)), [store]);
};

/** A row with the pushed vitals when they arrived after the row was loaded (`loadedAt`, browser ms). */
export const withPushedVitals = (
  resident: LiveResident,
  pushed: PushedVitals | undefined,
  loadedAt: number,
): LiveResident => (pushed && pushed.receivedAt >= loadedAt ? { ...resident, vitals: pushed.vitals } : resident);

/**
 * Rows of a list call kept live: the residents with a sleep monitor are followed, and each row
 * shows the vitals pushed since the list was loaded (`loadedAt`: the query's dataUpdatedAt).
 */
export const useLiveResidents = (rows: readonly LiveResident[] | undefined, loadedAt: number): LiveResident[] => {
  const watched = useMemo(() => (rows ?? []).filter((r) => r.vitals !== null).map((r) => r.userId), [rows]);
  const pushed = useLiveVitals(watched);
  return useMemo(
    () => (rows ?? []).map((row) => withPushedVitals(row, pushed.get(row.userId), loadedAt)),
    [rows, pushed, loadedAt],
  );
};
