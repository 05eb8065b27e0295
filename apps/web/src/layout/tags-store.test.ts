import { beforeEach, describe, expect, it } from 'vitest';
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
