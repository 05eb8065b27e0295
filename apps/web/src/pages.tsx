import { CONSOLE_ROUTES } from '@vigil/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PlaceholderPage } from './features/placeholder/PlaceholderPage.tsx';

type Page = LazyExoticComponent<ComponentType>;

/** Screens built so far, each its own chunk; every other menu entry shows a placeholder. */
const BUILT: Record<string, Page> = {
  providermanager: lazy(() => import('./features/providers/ProviderManagePage.tsx')),
  accountmanager: lazy(() => import('./features/accounts/AccountManagePage.tsx')),
  platSet: lazy(() => import('./features/settings/PlatSetPage.tsx')),
};

export const pageFor = (name: string): ComponentType => BUILT[name] ?? (() => <PlaceholderPage name={name} />);

export const consolePages = CONSOLE_ROUTES.map((route) => ({ route, Page: pageFor(route.name) }));
