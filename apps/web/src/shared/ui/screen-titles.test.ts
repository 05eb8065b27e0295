import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_ROUTES } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Route name → the page file pages.tsx loads for it. */
const pageFiles = (): Map<string, string> => {
  const pages = fs.readFileSync(path.join(SRC, 'pages.tsx'), 'utf8');
  return new Map(
    [...pages.matchAll(/^\s*(\w+): lazy\(\(\) => import\('\.\/([^']+)'\)\)/gm)].map(([, name = '', file = '']) => [
      name,
      path.join(SRC, file),
    ]),
  );
};

/** Screens about one resident: the resident's name heads them, under the tab's name. */
const RESIDENT_HEADED = ['resident'];

describe('screen headings (issue 29, point 14)', () => {
  it('head every screen with the name of its menu entry and tab', () => {
    const files = pageFiles();
    const screens = CONSOLE_ROUTES.filter((r) => !r.planned && !RESIDENT_HEADED.includes(r.name));
    expect(screens.length).toBeGreaterThan(20);
    for (const route of screens) {
      const file = files.get(route.name);
      expect(file, route.name).toBeDefined();
      const source = fs.readFileSync(file ?? '', 'utf8');
      expect(source, `${route.name}: ${file ?? ''}`).toContain(`<ScreenTitle route="${route.name}"`);
    }
  });
});
