import type { ConsoleRoute } from '@vigil/contract/browser';

export interface MenuNode {
  key: string;
  /** Translation key of the label. */
  label: string;
  /** Route name of a leaf (icons are chosen by it); groups have none. */
  route?: string;
  path?: string;
  children?: MenuNode[];
}

export const GROUPS: Record<string, string> = {
  realMonitor: 'menu.group.monitor',
  deviceManage: 'menu.group.device',
  permission: 'menu.group.permission',
  settings: 'menu.group.settings',
  appReleaseManage: 'menu.group.release',
};

const groupOf = (path: string): string | undefined => GROUPS[path.split('/')[1] ?? ''];

/** The sidebar tree: routes under a shared prefix become a group, the rest stand alone. */
export const buildMenuTree = (routes: readonly ConsoleRoute[]): MenuNode[] => {
  const out: MenuNode[] = [];
  const groups = new Map<string, MenuNode>();
  for (const route of routes) {
    const leaf: MenuNode = { key: route.path, label: `menu.${route.name}`, route: route.name, path: route.path };
    const group = groupOf(route.path);
    if (!group) {
      out.push(leaf);
      continue;
    }
    let node = groups.get(group);
    if (!node) {
      node = { key: group, label: group, children: [] };
      groups.set(group, node);
      out.push(node);
    }
    node.children?.push(leaf);
  }
  return out;
};

/** Breadcrumb labels (translation keys) for a path. */
export const breadcrumbFor = (path: string, route: ConsoleRoute | undefined): string[] => {
  if (!route) return [];
  const group = groupOf(path);
  return group ? [group, `menu.${route.name}`] : [`menu.${route.name}`];
};
