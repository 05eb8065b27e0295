import { getPlatformName } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../shared/api/client.ts';
import { routeForPath } from '../shared/routing/route-access.ts';
import { StorageKey, storage } from '../shared/storage.ts';
import { pageTitle } from './page-title.ts';

/** Page title and icon follow the platform name and logo; the title names the screen first. */
export const useBranding = (pathname: string) => {
  const { t } = useTranslation();
  const platform = useQuery({ queryKey: ['platform'], queryFn: () => api(getPlatformName, {}) });
  const platformName = platform.data?.platformName ?? storage.get(StorageKey.platName) ?? t('app.name');
  const route = routeForPath(pathname);
  const screen = route ? t(`menu.${route.name}`) : null;
  useEffect(() => {
    document.title = pageTitle(screen, platformName);
    // Leaving the console (signing out) must not leave a screen's name in the tab.
    return () => {
      document.title = platformName;
    };
  }, [screen, platformName]);
  // Until the server answers, the icon is the one remembered from last time, as the title is.
  const logoUrl = platform.data ? platform.data.logoUrl : storage.get(StorageKey.logoUrl);
  useEffect(() => {
    if (!platform.data) return;
    storage.set(StorageKey.platName, platform.data.platformName);
    storage.set(StorageKey.logoUrl, platform.data.logoUrl);
  }, [platform.data]);
  useEffect(() => {
    const icon = document.getElementById('app-favicon');
    // A removed logo takes the icon away too (the page's default is none).
    if (icon instanceof HTMLLinkElement) icon.href = logoUrl ?? 'data:,';
  }, [logoUrl]);
};
