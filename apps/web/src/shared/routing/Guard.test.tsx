import { adminSession } from '@vigil/contract/browser';
import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { api } from '../api/client.ts';
import { sessionStore } from '../session/session-store.ts';
import { StorageKey, storage } from '../storage.ts';
import { Guard } from './Guard.tsx';

/** A screen whose call finds the session expired (inner 101 on a login-sensitive call). */
const ExpiringScreen = () => {
  useEffect(() => {
    api(adminSession, {}).catch(() => undefined);
  }, []);
  return <p>screen</p>;
};
const Login = () => {
  const location = useLocation();
  return <p data-testid="login">{`${location.pathname}${location.search}`}</p>;
};

describe('Guard', () => {
  let i18n: Awaited<ReturnType<typeof englishI18n>>;
  beforeAll(async () => {
    i18n = await englishI18n();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.reset();
  });

  it('says the login expired and goes to login with the redirect when a call answers 101 (issue 8, point 16)', async () => {
    storage.set(StorageKey.token, 'stale-token');
    storage.setJson(StorageKey.user, {
      key: 'k',
      permissionType: 0,
      voiceFlag: true,
      role: 'SUPER_ROLE',
      providerRole: null,
      uploadDataFlag: false,
      menuList: ['providermanager'],
      landingPath: '/permission/providermanager',
      userId: 1,
      userName: 'admin',
      name: 'admin',
      domain: null,
      providerId: null,
      providerName: null,
      providerList: [],
      currentProvider: null,
      mustChangePassword: false,
      abroad: false,
      deviceGroups: [],
    });
    sessionStore.setInfo(storage.getJson(StorageKey.user) as never);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ status: 101, msg: 'expired', data: null, msgKey: 'session.expired' }), {
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    render(
      inTestShell(
        i18n,
        <Routes>
          <Route path="/login" element={<Login />} />
          <Route element={<Guard />}>
            <Route path="*" element={<ExpiringScreen />} />
          </Route>
        </Routes>,
        '/permission/providermanager',
      ),
    );
    expect(await screen.findByText('Your login has expired. Please log in again.')).toBeInTheDocument();
    expect((await screen.findByTestId('login')).textContent).toBe('/login?redirect=%2Fpermission%2Fprovidermanager');
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});
