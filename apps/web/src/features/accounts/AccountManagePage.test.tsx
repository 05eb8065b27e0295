import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { SessionInfo } from '@vigil/contract';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../shared/i18n/locales/en-US.json';

// The API client captures fetch when it is created, so the mock must exist before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn(async (url: string) => {
    const data = url.includes('/account/queryAccountList')
      ? {
          rows: [
            {
              id: 11,
              userName: 'carer0001',
              nickName: 'Anna Worker',
              role: 'SOCIAL_WORKER',
              providerId: 7,
              providerName: 'Sunrise Care',
              permissionType: 0,
              providerIds: [],
              enabled: true,
              remark: null,
              lastLoginTime: '2026-02-01 08:00:00',
              createTime: '2026-01-01 10:00:00',
            },
          ],
          total: 1,
          pageNum: 1,
          pageSize: 10,
        }
      : null;
    return new Response(JSON.stringify({ status: 200, msg: 'ok', data }), { status: 200 });
  });
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

import { sessionStore } from '../../shared/session/session-store.ts';
import AccountManagePage from './AccountManagePage.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: en } },
    interpolation: { escapeValue: false },
  });
});

const wrap = (node: ReactNode, path = '/') => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <I18nextProvider i18n={i18n}>
      <AntApp>
        <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
      </AntApp>
    </I18nextProvider>
  </QueryClientProvider>
);

describe('AccountManagePage', () => {
  beforeEach(() => {
    sessionStore.setInfo({ role: 'ONE_ROLE', providerRole: 'ONE_ROLE', providerList: [] } as unknown as SessionInfo);
  });

  it('lists accounts from queryAccountList', async () => {
    render(wrap(<AccountManagePage />));
    expect(await screen.findByText('carer0001')).toBeInTheDocument();
    expect(screen.getByText('Anna Worker')).toBeInTheDocument();
    expect(screen.getByText('Social worker')).toBeInTheDocument();
    expect(screen.getByText('Sunrise Care')).toBeInTheDocument();
    expect(screen.getByTestId('account-table')).toBeInTheDocument();
  });

  it('the create form refuses an invalid login account', async () => {
    render(wrap(<AccountManagePage />));
    fireEvent.click(await screen.findByTestId('account-create'));
    await waitFor(() => expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Create account'));
    fireEvent.change(screen.getByLabelText('Display name'), { target: { value: 'Bob' } });
    fireEvent.change(screen.getByLabelText('Login account'), { target: { value: 'ab_1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent)).toContain(
        '6 to 64 letters or digits',
      ),
    );
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/account/insertAccount'))).toBe(false);
  });
});
