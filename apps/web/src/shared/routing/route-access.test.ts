import { describe, expect, it } from 'vitest';
import { allowedRoutes, decideNavigation, landingFor, routeForPath, type AccessContext } from './route-access.ts';

const ctx = (over: Partial<AccessContext>): AccessContext => ({
  role: 'TWO_ROLE',
  providerRole: 'TWO_ROLE',
  abroad: false,
  deviceGroups: [],
  providerList: [{ id: 2, name: 'Home', domain: 'p2', available: true }],
  chosenProviderName: null,
  ...over,
});

describe('navigation guard', () => {
  it('without a token only public pages open; others go to login with the full path', () => {
    for (const path of ['/login', '/404', '/noPermission']) {
      expect(decideNavigation({ path, search: '', token: null, access: null, from: null })).toEqual({ kind: 'allow' });
    }
    expect(
      decideNavigation({ path: '/settings/platSet', search: '?a=1', token: null, access: null, from: null }),
    ).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fsettings%2FplatSet%3Fa%3D1',
    });
  });

  it('with a token but no role loads the session info', () => {
    expect(decideNavigation({ path: '/', search: '', token: 't', access: null, from: null })).toEqual({
      kind: 'loadInfo',
    });
  });

  it('sends / to the landing page, forbidden pages to /noPermission (or / from login)', () => {
    const access = ctx({});
    expect(decideNavigation({ path: '/', search: '', token: 't', access, from: null })).toEqual({
      kind: 'redirect',
      to: '/realMonitor/index',
    });
    expect(
      decideNavigation({ path: '/deviceManage/hardSoftUpload', search: '', token: 't', access, from: '/x' }),
    ).toEqual({
      kind: 'redirect',
      to: '/noPermission',
    });
    expect(
      decideNavigation({ path: '/deviceManage/hardSoftUpload', search: '', token: 't', access, from: '/login' }),
    ).toEqual({ kind: 'redirect', to: '/' });
  });

  it('lets an unknown path through to the 404 page, a planned screen’s too (issue 29, point 14)', () => {
    const access = ctx({});
    for (const path of ['/no/such', '/realMonitor/nothing', '/statistics', '/settings/statisticsMult']) {
      expect(decideNavigation({ path, search: '', token: 't', access, from: null }), path).toEqual({ kind: 'allow' });
      expect(decideNavigation({ path, search: '', token: 't', access, from: '/login' }), path).toEqual({
        kind: 'allow',
      });
    }
    // Signed out, it is a page like any other: sign in first, then the 404 page.
    expect(decideNavigation({ path: '/no/such', search: '', token: null, access: null, from: null })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fno%2Fsuch',
    });
  });

  it('checks a screen reached in another case or with a trailing slash, as the router renders it', () => {
    const access = ctx({});
    for (const path of [
      '/deviceManage/hardSoftUpload/',
      '/DEVICEMANAGE/hardsoftupload',
      '/deviceManage/hardSoftUpload//',
    ]) {
      expect(decideNavigation({ path, search: '', token: 't', access, from: '/x' }), path).toEqual({
        kind: 'redirect',
        to: '/noPermission',
      });
    }
    expect(routeForPath('/BunkManage/alarmSetting/12/')?.name).toBe('settingAlarm');
  });

  it('sends a signed-in login page to its redirect, not to the landing page (issue 8, point 4)', () => {
    const access = ctx({});
    const login = (search: string) => decideNavigation({ path: '/login', search, token: 't', access, from: null });
    expect(login('?redirect=%2Fpeople-manage%2FuserManage%3Fpage%3D2')).toEqual({
      kind: 'redirect',
      to: '/people-manage/userManage?page=2',
    });
    for (const other of ['?redirect=%2F%2Fevil.example', '?redirect=%2F%5Cevil.example', '?redirect=%2Flogin', '']) {
      expect(login(other), other).toEqual({ kind: 'redirect', to: '/' });
    }
  });
});

describe('route filtering', () => {
  it('shows a device screen only when the server says the session works with devices of its groups', () => {
    const devices = ['deviceManage', 'ed719', 'safeDeviceManage', 'hostDevice'];
    const names = (over: Partial<AccessContext>) =>
      allowedRoutes(ctx(over))
        .map((r) => r.name)
        .filter((n) => devices.includes(n));
    expect(names({})).toEqual(['deviceManage']);
    // The overseas edition alone opens nothing: the server lists every group for it (decision 0033).
    expect(names({ abroad: true })).toEqual(['deviceManage']);
    expect(names({ deviceGroups: ['fall'] })).toEqual(['deviceManage', 'ed719']);
    expect(names({ deviceGroups: ['wearable', 'gateway'] })).toEqual([
      'deviceManage',
      'safeDeviceManage',
      'hostDevice',
    ]);
  });

  it('class 1 without providers loses the care screens and lands on provider management', () => {
    const one = ctx({ role: 'ONE_ROLE', providerRole: 'ONE_ROLE', providerList: [] });
    const names = allowedRoutes(one).map((r) => r.name);
    for (const n of [
      'RealTime',
      'alarm',
      'SleepReport',
      'PeopleManage',
      'BunkManage',
      'nurseManage',
      'remindsetting',
      'statisticsMult',
    ]) {
      expect(names).not.toContain(n);
    }
    expect(landingFor(one)).toBe('/permission/providermanager');
  });

  it('never opens a planned screen, whatever the role and providers (issue 29, point 11)', () => {
    const one = ctx({ role: 'ONE_ROLE', providerRole: 'ONE_ROLE', chosenProviderName: 'Home' });
    for (const access of [one, ctx({}), ctx({ role: 'GOVERNMENT', providerRole: null })]) {
      const names = allowedRoutes(access).map((r) => r.name);
      expect(names).not.toContain('statistics');
      expect(names).not.toContain('statisticsMult');
    }
    // A planned screen's path is as unknown as any other, and a government viewer has no screen yet.
    expect(routeForPath('/statistics')).toBeUndefined();
    expect(routeForPath('/settings/statisticsMult')).toBeUndefined();
    expect(landingFor(ctx({ role: 'GOVERNMENT', providerRole: null }))).toBe('/noPermission');
  });
});
