import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import type { SessionInfo } from '@vigil/contract';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

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

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

const wrap = (node: ReactNode, path = '/') => inTestShell(i18n, node, path);

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
