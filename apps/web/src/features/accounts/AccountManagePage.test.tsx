import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { queryAccountList, type Account, type EndpointResult } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import AccountManagePage from './AccountManagePage.tsx';
import { sessionInfo } from '../../test/session-info.ts';

const worker: Account = {
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
  lastLoginTime: '2026-02-01T08:00:00.000Z',
  createTime: '2026-01-01T10:00:00.000Z',
  lockedUntil: null,
};
const accountList: EndpointResult<typeof queryAccountList> = {
  rows: [worker],
  // Enough for three pages, so a filter can be seen to go back to page 1.
  total: 25,
  pageNum: 1,
  pageSize: 10,
};

// The API client looks fetch up at each call, so replacing it here is enough.
const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = { status: 200, msg: 'ok', data: path === queryAccountList.path ? accountList : null };
  // A fake answers only what the real server may (the catch-all null answer is not checked).
  if (path === queryAccountList.path) checkFakeAnswer(path, envelope);
  return new Response(JSON.stringify(envelope), { status: 200 });
});
globalThis.fetch = fetchMock as unknown as typeof fetch;

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

const wrap = (node: ReactNode, path = '/') => inTestShell(i18n, node, path);

/** The body of the latest list request: what the filters and pagination sent. */
const lastListRequest = (): Record<string, unknown> => {
  const calls = fetchMock.mock.calls.filter(([url]) => url.includes('/account/queryAccountList'));
  return JSON.parse(String(calls.at(-1)?.[1]?.body)) as Record<string, unknown>;
};
/** Option elements of the antd Select dropdowns opened so far. */
const shownOptions = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')];
/**
 * Opens a filter (an antd Select) by its test id and clicks the option showing `label`. Under test every
 * Select gets the id "test-id", so the option is found by its text (unique on this page), not by aria-controls.
 */
const choose = async (filterTestId: string, label: string) => {
  fireEvent.mouseDown(screen.getByTestId(filterTestId));
  const option = await waitFor(() => {
    const found = shownOptions().find((o) => o.textContent === label);
    if (!found) throw new Error(`no option ${label} in ${filterTestId}`);
    return found;
  });
  fireEvent.click(option);
};

describe('AccountManagePage', () => {
  beforeEach(() => {
    sessionStore.setInfo(sessionInfo({ role: 'ONE_ROLE', providerRole: 'ONE_ROLE' }));
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
    // By text, not role: role queries compute styles for the whole table and modal, slow in jsdom.
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent)).toContain(
        '6 to 64 letters or digits',
      ),
    );
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/account/insertAccount'))).toBe(false);
  });

  it('offers the roles the caller manages as the role filter', async () => {
    render(wrap(<AccountManagePage />));
    await screen.findByText('carer0001');
    fireEvent.mouseDown(screen.getByTestId('account-filter-role'));
    await waitFor(() =>
      expect(shownOptions().map((o) => o.textContent)).toEqual([
        'Sub-account',
        'Installer',
        'Social worker',
        'Government viewer',
      ]),
    );
  });

  it('filters by role and state, going back to page 1 each time and keeping the keyword', async () => {
    render(wrap(<AccountManagePage />));
    await screen.findByText('carer0001');
    const search = screen.getByPlaceholderText('Keyword');
    fireEvent.change(search, { target: { value: 'anna' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, keyWord: 'anna' }));
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastListRequest()).toMatchObject({ pageNum: 2 }));

    await choose('account-filter-role', 'Installer');
    await waitFor(() =>
      expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, keyWord: 'anna', role: 'MAINTAIN' }),
    );

    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() => expect(lastListRequest()).toMatchObject({ pageNum: 3 }));
    await choose('account-filter-enabled', 'Disabled');
    await waitFor(() =>
      expect(lastListRequest()).toEqual({
        pageNum: 1,
        pageSize: 10,
        keyWord: 'anna',
        role: 'MAINTAIN',
        enabled: false,
      }),
    );
  });
});
