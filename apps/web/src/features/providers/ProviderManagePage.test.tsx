import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../shared/i18n/locales/en-US.json';

// The API client captures fetch when it is created, so the mock must exist before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn(async (url: string) => {
    const data = url.includes('/provider/queryProviderList')
      ? {
          rows: [
            {
              id: 7,
              name: 'Sunrise Care',
              number: 'SR-1',
              domain: 'sunrise',
              userName: 'sunrise01',
              providerClass: 1,
              parentId: null,
              parentName: null,
              logoUrl: null,
              platformName: null,
              enabled: true,
              remark: null,
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

import ProviderManagePage from './ProviderManagePage.tsx';

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

describe('ProviderManagePage', () => {
  it('lists providers from queryProviderList', async () => {
    render(wrap(<ProviderManagePage />));
    expect(await screen.findByText('Sunrise Care')).toBeInTheDocument();
    expect(screen.getByText('sunrise01')).toBeInTheDocument();
    expect(screen.getByTestId('provider-table')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/provider/queryProviderList'))).toBe(true);
  });

  it('opens the create form from ?action=create and refuses an invalid login account', async () => {
    render(wrap(<ProviderManagePage />, '/?action=create'));
    // The modal opens on mount because of ?action=create.
    await waitFor(() => expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Create provider'));
    fireEvent.change(screen.getByLabelText('Provider name'), { target: { value: 'New Care' } });
    fireEvent.change(screen.getByLabelText('Login account'), { target: { value: 'ab_1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe('6 to 64 letters or digits'),
    );
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/provider/insertProvider'))).toBe(false);
  });
});
