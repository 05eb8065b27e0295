import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { consolePages } from './pages.tsx';
import { Guard } from './shared/routing/Guard.tsx';

const LoginPage = lazy(() => import('./features/login/LoginPage.tsx'));
const AppLayout = lazy(() => import('./layout/AppLayout.tsx').then((m) => ({ default: m.AppLayout })));
const NotFoundPage = lazy(() => import('./features/errors/ErrorPages.tsx').then((m) => ({ default: m.NotFoundPage })));
const NoPermissionPage = lazy(() =>
  import('./features/errors/ErrorPages.tsx').then((m) => ({ default: m.NoPermissionPage })),
);
const RedirectPage = lazy(() => import('./features/redirect/RedirectPage.tsx'));

const suspense = (node: React.ReactNode) => <Suspense fallback={<Spin fullscreen />}>{node}</Suspense>;

export const routes: RouteObject[] = [
  {
    element: <Guard />,
    children: [
      { path: '/login', element: suspense(<LoginPage />) },
      { path: '/404', element: suspense(<NotFoundPage />) },
      { path: '/noPermission', element: suspense(<NoPermissionPage />) },
      {
        element: suspense(<AppLayout />),
        children: [
          ...consolePages.map(({ route, Page }) => ({ path: route.path, element: suspense(<Page />) })),
          { path: '/redirect/*', element: suspense(<RedirectPage />) },
        ],
      },
      // Unknown paths, a planned screen's too, show the 404 page (the guard lets them through).
      { path: '*', element: suspense(<NotFoundPage />) },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
