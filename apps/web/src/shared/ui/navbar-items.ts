import type { Role } from '@vigil/contract/browser';

export type NavbarItem =
  | 'toggle'
  | 'breadcrumb'
  | 'userName'
  | 'fullscreen'
  | 'statistics'
  | 'language'
  | 'home'
  | 'alarmBell'
  | 'downloadGuide'
  | 'clock'
  | 'avatar';

const ADMINISTRATORS: readonly Role[] = ['SUPER_ROLE', 'SENIOR_ROLE'];

/** Which top-bar items show (spec document 2, section 2: the top-bar paragraph). */
export const visibleNavbarItems = (input: {
  path: string;
  role: Role;
  allowedNames: readonly string[];
  fastLogin: boolean;
}): Set<NavbarItem> => {
  const { path, role, allowedNames, fastLogin } = input;
  if (fastLogin) return new Set<NavbarItem>(['breadcrumb', 'userName', 'clock', 'avatar']);
  const items = new Set<NavbarItem>([
    'toggle',
    'breadcrumb',
    'userName',
    'fullscreen',
    'language',
    'downloadGuide',
    'clock',
    'avatar',
  ]);
  const onStatistics = path === '/statistics';
  if (allowedNames.includes('statistics') && !onStatistics && !ADMINISTRATORS.includes(role)) items.add('statistics');
  if (onStatistics && role !== 'GOVERNMENT') items.add('home');
  if (allowedNames.includes('alarm')) items.add('alarmBell');
  return items;
};
