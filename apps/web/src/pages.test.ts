import { CONSOLE_ROUTES } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { BUILT, consolePages } from './pages.tsx';

describe('console pages (issue 29, point 11)', () => {
  it('has a page for every screen that is not planned, and a route for nothing else', () => {
    const open = CONSOLE_ROUTES.filter((r) => !r.planned).map((r) => r.name);
    expect(Object.keys(BUILT).sort()).toEqual([...open].sort());
    expect(consolePages.map((p) => p.route.name)).toEqual(open);
  });
});
