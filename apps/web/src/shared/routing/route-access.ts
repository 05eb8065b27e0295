import {
  CONSOLE_ROUTES,
  landingPathFor,
  showsDeviceScreen,
  type ConsoleRoute,
  type DeviceGroup,
  type ProviderOption,
  type ProviderRole,
  type Role,
} from '@vigil/contract/browser';
import { matchPath } from 'react-router';

export interface AccessContext {
  role: Role;
  providerRole: ProviderRole | null;
  /** The platform's overseas edition (session info). */
  abroad: boolean;
  /** Device groups the session works with: their screens show (session info, decision 0033). */
  deviceGroups: readonly DeviceGroup[];
  providerList: readonly ProviderOption[];
  chosenProviderName: string | null;
}

/** A class 1 provider account, or a sub-account of one: the spec's provider-list rules apply. */
export const isClassOne = (ctx: Pick<AccessContext, 'role' | 'providerRole'>): boolean =>
  ctx.role === 'ONE_ROLE' || (ctx.role === 'SUB_ROLE' && ctx.providerRole === 'ONE_ROLE');

/** Routes the session may open (spec document 1, sections 2 and 6). */
export const allowedRoutes = (ctx: AccessContext): ConsoleRoute[] =>
  CONSOLE_ROUTES.filter((route) => {
    if (route.planned || !route.roles.includes(ctx.role)) return false;
    if (!showsDeviceScreen(route, ctx.deviceGroups)) return false;
    if (isClassOne(ctx)) {
      if (route.needsProviderList && ctx.providerList.length === 0) return false;
      if (route.needsChosenProvider && !ctx.chosenProviderName) return false;
    }
    return true;
  });

/** Menu entries: allowed and not hidden. */
export const menuRoutes = (ctx: AccessContext): ConsoleRoute[] => allowedRoutes(ctx).filter((r) => !r.hidden);

/**
 * Whether a path is the route's, matched as the router matches it (any case, trailing slashes):
 * a path the router renders a screen for is always checked against that screen's roles.
 */
const matches = (pattern: string, path: string): boolean => matchPath({ path: pattern, end: true }, path) !== null;

/** The screen at a path; a planned screen does not exist yet, so its path is unknown like any other. */
export const routeForPath = (path: string): ConsoleRoute | undefined =>
  CONSOLE_ROUTES.find((r) => !r.planned && matches(r.path, path));

export const landingFor = (ctx: AccessContext): string => {
  const landing = landingPathFor(
    ctx.role,
    ctx.providerList.some((p) => p.available),
  );
  // The landing page may be filtered out: fall back to the first permitted menu.
  const allowed = allowedRoutes(ctx);
  if (allowed.some((r) => matches(r.path, landing))) return landing;
  return menuRoutes(ctx)[0]?.path ?? '/noPermission';
};

export const PUBLIC_PATHS = ['/login', '/404', '/noPermission'];

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'loadInfo' };

export interface GuardInput {
  path: string;
  search: string;
  token: string | null;
  /** Session data with a role, or null when only a token is stored. */
  access: AccessContext | null;
  /** Where the navigation comes from (the previous path), if any. */
  from: string | null;
}

/** A login `redirect` the console may follow: one of its own paths, never another host (`//x`, `/\\x`) or the login page. */
export const consoleRedirect = (redirect: string | null): string | null =>
  redirect && /^\/(?![/\\])/.test(redirect) && !redirect.startsWith('/login') ? redirect : null;

/** The navigation guard of spec document 1, section 4, as a pure decision. */
export const decideNavigation = ({ path, search, token, access, from }: GuardInput): GuardDecision => {
  if (!token) {
    if (PUBLIC_PATHS.includes(path)) return { kind: 'allow' };
    return { kind: 'redirect', to: `/login?redirect=${encodeURIComponent(path + search)}` };
  }
  if (path === '/login') {
    // A fast-login link replaces whatever session the browser had.
    const query = new URLSearchParams(search);
    if (query.has('secretPassword')) return { kind: 'allow' };
    // Signed in on the login page: the page the user came for (spec), which is then checked like
    // any other; the landing page only when there is none (issue 8, point 4).
    return { kind: 'redirect', to: consoleRedirect(query.get('redirect')) ?? '/' };
  }
  if (!access) return { kind: 'loadInfo' };
  if (PUBLIC_PATHS.includes(path) || path.startsWith('/redirect/')) return { kind: 'allow' };
  if (path === '/') return { kind: 'redirect', to: landingFor(access) };
  const route = routeForPath(path);
  // An unknown path (a planned screen's too) shows the 404 page, not another screen (issue 29, point 14).
  if (!route) return { kind: 'allow' };
  if (allowedRoutes(access).includes(route)) return { kind: 'allow' };
  return { kind: 'redirect', to: from === '/login' ? '/' : '/noPermission' };
};
