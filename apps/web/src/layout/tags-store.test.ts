import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tagsStore, type VisitedView } from './tags-store.ts';

const view = (path: string, affix = false): VisitedView => ({ path, name: path.slice(1) || 'home', affix });
const paths = () => tagsStore.get().map((v) => v.path);

describe('tagsStore', () => {
  beforeEach(() => tagsStore.clear());

  it('visit adds each path once and puts affixed views first', () => {
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/b'));
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/home', true));
    expect(paths()).toEqual(['/home', '/a', '/b']);
  });

  it('notifies subscribers and stops after unsubscribe', () => {
    let calls = 0;
    const off = tagsStore.subscribe(() => calls++);
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/a'));
    expect(calls).toBe(1);
    off();
    tagsStore.visit(view('/b'));
    expect(calls).toBe(1);
  });

  it('close refuses affixed and unknown views', () => {
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/a'));
    expect(tagsStore.close('/home')).toBeNull();
    expect(tagsStore.close('/nope')).toBeNull();
    expect(paths()).toEqual(['/home', '/a']);
  });

  it('close returns the left neighbour, or the right one at the start', () => {
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/b'));
    tagsStore.visit(view('/c'));
    expect(tagsStore.close('/b')).toBe('/a');
    expect(paths()).toEqual(['/home', '/a', '/c']);
    expect(tagsStore.close('/a')).toBe('/home');
    expect(paths()).toEqual(['/home', '/c']);
    tagsStore.clear();
    tagsStore.visit(view('/x'));
    tagsStore.visit(view('/y'));
    expect(tagsStore.close('/x')).toBe('/y');
    expect(tagsStore.close('/y')).toBe('/');
    expect(paths()).toEqual([]);
  });

  it('closeOthers keeps affixed views and the given one', () => {
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/b'));
    tagsStore.visit(view('/c'));
    tagsStore.closeOthers('/b');
    expect(paths()).toEqual(['/home', '/b']);
  });

  it('closeAll keeps affixed views and returns the first one', () => {
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/b'));
    expect(tagsStore.closeAll()).toBe('/home');
    expect(paths()).toEqual(['/home']);
  });

  it('closeAll without an affixed view returns the root', () => {
    tagsStore.visit(view('/a'));
    expect(tagsStore.closeAll()).toBe('/');
    expect(paths()).toEqual([]);
  });
});

describe('tagsStore across a reload', () => {
  const all = () => true;
  /** The store as a reloaded page sees it: a fresh module over this tab's storage. */
  const reloaded = async () => {
    vi.resetModules();
    return (await import('./tags-store.ts')).tagsStore;
  };
  const saved = () => JSON.parse(window.sessionStorage.getItem('tagsView') ?? 'null') as unknown;

  beforeEach(() => {
    tagsStore.clear();
    window.sessionStorage.clear();
  });

  it('saves path and menu name of each view for its owner, in this tab only', () => {
    tagsStore.restore('7', all, '/home');
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/a'));
    expect(saved()).toEqual({
      owner: '7',
      views: [
        { path: '/home', name: 'home' },
        { path: '/a', name: 'a' },
      ],
    });
    expect(window.localStorage.getItem('tagsView')).toBeNull();
  });

  it('gives the same owner its views back after a reload, the landing view affixed first', async () => {
    tagsStore.restore('7', all, '/home');
    tagsStore.visit(view('/a'));
    tagsStore.visit(view('/home', true));
    tagsStore.visit(view('/b'));
    const store = await reloaded();
    expect(store.get()).toEqual([]);
    store.restore('7', all, '/home');
    expect(store.get()).toEqual([view('/home', true), view('/a'), view('/b')]);
  });

  it('drops the views the session may no longer open', async () => {
    tagsStore.restore('7', all, '/home');
    for (const path of ['/home', '/a', '/b']) tagsStore.visit(view(path, path === '/home'));
    const store = await reloaded();
    store.restore('7', (v) => v.path !== '/a', '/home');
    expect(store.get().map((v) => v.path)).toEqual(['/home', '/b']);
    // Kept as filtered: the next reload does not bring /a back.
    const again = await reloaded();
    again.restore('7', all, '/home');
    expect(again.get().map((v) => v.path)).toEqual(['/home', '/b']);
  });

  it('filters the current views again when the session changes without a reload', () => {
    tagsStore.restore('7', all, '/home');
    for (const path of ['/home', '/a', '/b']) tagsStore.visit(view(path, path === '/home'));
    tagsStore.restore('7', (v) => v.path !== '/b', '/a');
    expect(tagsStore.get()).toEqual([view('/a', true), view('/home')]);
  });

  it('never shows one account the views of another', async () => {
    tagsStore.restore('7', all, '/home');
    tagsStore.visit(view('/secret'));
    tagsStore.restore('8', all, '/home');
    expect(tagsStore.get()).toEqual([]);
    tagsStore.visit(view('/mine'));
    const store = await reloaded();
    store.restore('7', all, '/home');
    expect(store.get()).toEqual([]);
  });

  it('keeps nothing after signing out', async () => {
    tagsStore.restore('7', all, '/home');
    tagsStore.visit(view('/a'));
    tagsStore.clear();
    const store = await reloaded();
    store.restore('7', all, '/home');
    expect(store.get()).toEqual([]);
  });

  it('ignores malformed saved views', async () => {
    window.sessionStorage.setItem('tagsView', '{"owner":"7","views":[{"path":"/a"},42,{"path":"/b","name":"b"}]}');
    const store = await reloaded();
    store.restore('7', all, '/home');
    expect(store.get()).toEqual([view('/b')]);
    window.sessionStorage.setItem('tagsView', 'not json');
    const broken = await reloaded();
    broken.restore('7', all, '/home');
    expect(broken.get()).toEqual([]);
  });
});
