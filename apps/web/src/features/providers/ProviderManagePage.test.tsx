import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { beforeAll, describe, expect, it, vi } from 'vitest';

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

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

const wrap = (node: ReactNode, path = '/') => inTestShell(i18n, node, path);

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
