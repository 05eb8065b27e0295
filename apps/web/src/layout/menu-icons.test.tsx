import { CONSOLE_ROUTES } from '@vigil/contract/browser';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GROUP_ICONS, menuIcon, ROUTE_ICONS } from './menu-icons.tsx';
import { buildMenuTree, GROUPS, type MenuNode } from './menu-tree.ts';

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

describe('menu icons', () => {
  it('names an icon for every menu route and every group', () => {
    const menu = CONSOLE_ROUTES.filter((r) => !r.hidden).map((r) => r.name);
    expect(menu.filter((name) => !ROUTE_ICONS[name])).toEqual([]);
    expect(Object.values(GROUPS).filter((group) => !GROUP_ICONS[group])).toEqual([]);
  });

  it('renders an svg icon for every node of the full menu tree', () => {
    const nodes = flatten(buildMenuTree(CONSOLE_ROUTES.filter((r) => !r.hidden)));
    expect(nodes.length).toBeGreaterThan(20);
    for (const node of nodes) {
      const { container, unmount } = render(<>{menuIcon(node)}</>);
      expect(container.querySelector('svg'), node.key).not.toBeNull();
      unmount();
    }
  });

  it('tells entries apart: a leaf is iconed by its route, a group by its label', () => {
    const { container: leaf } = render(<>{menuIcon({ key: '/x', route: 'providermanager' })}</>);
    const { container: group } = render(<>{menuIcon({ key: 'menu.group.permission' })}</>);
    expect(leaf.querySelector('[aria-label="shop"]')).not.toBeNull();
    expect(group.querySelector('[aria-label="lock"]')).not.toBeNull();
  });
});
