import { useSyncExternalStore } from 'react';

export interface VisitedView {
  path: string;
  /** Menu name of the route; titles are translated when shown. */
  name: string;
  affix: boolean;
}

let views: VisitedView[] = [];
const listeners = new Set<() => void>();
const set = (next: VisitedView[]) => {
  views = next;
  for (const l of listeners) l();
};

/** Visited views of the tags bar. Affixed views (the landing page) never close. */
export const tagsStore = {
  get: () => views,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  visit(view: VisitedView) {
    if (views.some((v) => v.path === view.path)) return;
    set(view.affix ? [view, ...views] : [...views, view]);
  },
  /** Closes one view; returns the path to show next when it was the active one. */
  close(path: string): string | null {
    const index = views.findIndex((v) => v.path === path);
    const view = views[index];
    if (!view || view.affix) return null;
    const next = views.filter((v) => v.path !== path);
    set(next);
    return (next[index - 1] ?? next[index] ?? next[0])?.path ?? '/';
  },
  closeOthers(path: string) {
    set(views.filter((v) => v.affix || v.path === path));
  },
  closeAll(): string {
    const next = views.filter((v) => v.affix);
    set(next);
    return next[0]?.path ?? '/';
  },
  clear() {
    set([]);
  },
};

export const useVisitedViews = () => useSyncExternalStore(tagsStore.subscribe, tagsStore.get);
