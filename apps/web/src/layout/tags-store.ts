import { useSyncExternalStore } from 'react';
import { StorageKey, tabStorage } from '../shared/storage.ts';

export interface VisitedView {
  path: string;
  /** Menu name of the route; titles are translated when shown. */
  name: string;
  affix: boolean;
}

/** What survives a reload: whose views they are, and each view's path and menu name. */
interface SavedViews {
  owner: string;
  views: { path: string; name: string }[];
}

const isSavedView = (v: unknown): v is { path: string; name: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { path?: unknown }).path === 'string' &&
  typeof (v as { name?: unknown }).name === 'string';

/** The views saved for `owner` in this tab; nothing when they belong to someone else or are malformed. */
const savedFor = (owner: string): VisitedView[] => {
  const saved = tabStorage.getJson<Partial<SavedViews>>(StorageKey.tagsView);
  if (!saved || saved.owner !== owner || !Array.isArray(saved.views)) return [];
  return (saved.views as unknown[]).filter(isSavedView).map((v) => ({ path: v.path, name: v.name, affix: false }));
};

let owner: string | null = null;
let views: VisitedView[] = [];
const listeners = new Set<() => void>();
const set = (next: VisitedView[]) => {
  views = next;
  if (owner !== null) {
    const saved: SavedViews = { owner, views: next.map(({ path, name }) => ({ path, name })) };
    tabStorage.setJson(StorageKey.tagsView, saved);
  }
  for (const l of listeners) l();
};

/** Visited views of the tags bar. Affixed views (the landing page) never close. */
export const tagsStore = {
  get: () => views,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * Takes the views of `who` (after a reload: those saved in this tab), keeps those `allowed`
   * still lets them open, and affixes the landing page's view in front.
   */
  restore(who: string, allowed: (view: VisitedView) => boolean, landing: string) {
    const base = who === owner ? views : savedFor(who);
    owner = who;
    const kept = base.filter(allowed).map((v) => ({ ...v, affix: v.path === landing }));
    set([...kept.filter((v) => v.affix), ...kept.filter((v) => !v.affix)]);
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
  /** Signing out: nothing of this session's views is kept. */
  clear() {
    set([]);
    owner = null;
  },
};

export const useVisitedViews = () => useSyncExternalStore(tagsStore.subscribe, tagsStore.get);
