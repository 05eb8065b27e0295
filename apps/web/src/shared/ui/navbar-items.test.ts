import { CONSOLE_ROUTES, menuListFor, ROLES, type Role } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { visibleNavbarItems, type NavbarItem } from './navbar-items.ts';

const ALWAYS: NavbarItem[] = [
  'toggle',
  'breadcrumb',
  'userName',
  'fullscreen',
  'language',
  'downloadGuide',
  'clock',
  'avatar',
];
const FAST: NavbarItem[] = ['breadcrumb', 'userName', 'clock', 'avatar'];
const PATHS = ['/statistics', '/realMonitor/index', '/permission/accountmanager', '/statistics/x'];

/** The spec's matrix, written independently of the implementation. */
const expected = (role: Role, path: string): NavbarItem[] => {
  const names = menuListFor(role, []);
  const items = [...ALWAYS];
  if (names.includes('statistics') && path !== '/statistics' && role !== 'SUPER_ROLE' && role !== 'SENIOR_ROLE')
    items.push('statistics');
  if (path === '/statistics' && role !== 'GOVERNMENT') items.push('home');
  if (names.includes('alarm')) items.push('alarmBell');
  return items.sort();
};

describe('visibleNavbarItems', () => {
  it('covers all eleven roles', () => {
    expect(ROLES).toHaveLength(11);
  });

  for (const role of ROLES) {
    for (const path of PATHS) {
      it(`${role} on ${path}`, () => {
        const got = visibleNavbarItems({ path, role, allowedNames: menuListFor(role, []), fastLogin: false });
        expect([...got].sort()).toEqual(expected(role, path));
      });
    }
    it(`${role} with fast login shows only breadcrumb, userName, clock and avatar`, () => {
      for (const path of PATHS) {
        const got = visibleNavbarItems({ path, role, allowedNames: menuListFor(role, []), fastLogin: true });
        expect([...got].sort()).toEqual([...FAST].sort());
      }
    });
  }

  it('no role gets the statistics shortcut while that screen is planned (issue 29, point 11)', () => {
    for (const role of ROLES) {
      const got = visibleNavbarItems({ path: '/x', role, allowedNames: menuListFor(role, []), fastLogin: false });
      expect(got.has('statistics'), role).toBe(false);
    }
  });

  it('statistics shortcut, once the screen is built: ONE_ROLE and TWO_ROLE off the statistics page only', () => {
    const statistics = CONSOLE_ROUTES.find((r) => r.name === 'statistics');
    const has = (role: Role, path: string) =>
      visibleNavbarItems({
        path,
        role,
        allowedNames: statistics?.roles.includes(role) ? ['statistics'] : [],
        fastLogin: false,
      }).has('statistics');
    expect(has('ONE_ROLE', '/realMonitor/index')).toBe(true);
    expect(has('TWO_ROLE', '/realMonitor/index')).toBe(true);
    expect(has('GOVERNMENT', '/realMonitor/index')).toBe(true);
    expect(has('ONE_ROLE', '/statistics')).toBe(false);
    expect(has('SUB_ROLE', '/realMonitor/index')).toBe(false);
    expect(has('CARER', '/realMonitor/index')).toBe(false);
  });

  it('administrators never get the statistics shortcut even if the name is allowed', () => {
    for (const role of ['SUPER_ROLE', 'SENIOR_ROLE'] as const) {
      const got = visibleNavbarItems({ path: '/x', role, allowedNames: ['statistics', 'alarm'], fastLogin: false });
      expect(got.has('statistics')).toBe(false);
      expect(got.has('alarmBell')).toBe(true);
    }
  });

  it('home icon: only on /statistics, never for GOVERNMENT', () => {
    const home = (role: Role, path: string) =>
      visibleNavbarItems({ path, role, allowedNames: menuListFor(role, []), fastLogin: false }).has('home');
    expect(home('ONE_ROLE', '/statistics')).toBe(true);
    expect(home('TWO_ROLE', '/statistics')).toBe(true);
    expect(home('GOVERNMENT', '/statistics')).toBe(false);
    expect(home('ONE_ROLE', '/realMonitor/index')).toBe(false);
  });

  it('alarm bell follows the alarm menu name', () => {
    const bell = (role: Role) =>
      visibleNavbarItems({ path: '/x', role, allowedNames: menuListFor(role, []), fastLogin: false }).has('alarmBell');
    for (const role of ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE', 'SOCIAL_WORKER', 'CARER'] as const)
      expect(bell(role)).toBe(true);
    for (const role of ['SUPER_ROLE', 'SENIOR_ROLE', 'GOVERNMENT', 'BUSINESS_ROLE', 'MAINTAIN', 'RELATIVES'] as const)
      expect(bell(role)).toBe(false);
    expect(
      visibleNavbarItems({ path: '/x', role: 'ONE_ROLE', allowedNames: [], fastLogin: false }).has('alarmBell'),
    ).toBe(false);
  });
});
