import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { queryProviderList, type EndpointResult, type SessionInfo } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { providerRow } from '../devices/test-server.ts';
import ProviderManagePage from './ProviderManagePage.tsx';
import { sessionInfo } from '../../test/session-info.ts';

const providerList: EndpointResult<typeof queryProviderList> = {
  rows: [
    providerRow({
      id: 7,
      name: 'Sunrise Care',
      number: 'SR-1',
      domain: 'sunrise',
      userName: 'sunrise01',
      createTime: '2026-11-23T22:58:02.772Z',
    }),
  ],
  // Enough for three pages, so a filter can be seen to go back to page 1.
  total: 25,
  pageNum: 1,
  pageSize: 10,
};

// The API client looks fetch up at each call, so replacing it here is enough.
const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = { status: 200, msg: 'ok', data: path === queryProviderList.path ? providerList : null };
  // A fake answers only what the real server may (the catch-all null answer is not checked).
  if (path === queryProviderList.path) checkFakeAnswer(path, envelope);
  return new Response(JSON.stringify(envelope), { status: 200 });
});
globalThis.fetch = fetchMock as unknown as typeof fetch;

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

const wrap = (node: ReactNode, path = '/') => inTestShell(i18n, node, path);
afterEach(() => sessionStore.reset());

const signInAs = (role: SessionInfo['role']) => sessionStore.setInfo(sessionInfo({ role }));
/** The body of the latest list request: what the filters and pagination sent. */
const lastListRequest = (): Record<string, unknown> => {
  const calls = fetchMock.mock.calls.filter(([url]) => url.includes('/provider/queryProviderList'));
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

describe('ProviderManagePage', () => {
  it('lists providers from queryProviderList', async () => {
    render(wrap(<ProviderManagePage />));
    expect(await screen.findByText('Sunrise Care')).toBeInTheDocument();
    expect(screen.getByText('sunrise01')).toBeInTheDocument();
    expect(screen.getByTestId('provider-table')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/provider/queryProviderList'))).toBe(true);
    // The creation time in local time, never the raw UTC ISO string (issue 8, point 7).
    expect(screen.queryByText('2026-11-23T22:58:02.772Z')).not.toBeInTheDocument();
    expect(screen.getByText(formatDateTime('2026-11-23T22:58:02.772Z'))).toBeInTheDocument();
  });

  it('opens the create form from ?action=create and refuses an invalid login account', async () => {
    render(wrap(<ProviderManagePage />, '/?action=create'));
    // The modal opens on mount because of ?action=create.
    await waitFor(() => expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Create provider'));
    fireEvent.change(screen.getByLabelText('Provider name'), { target: { value: 'New Care' } });
    fireEvent.change(screen.getByLabelText('Login account'), { target: { value: 'ab_1' } });
    // By text, not role: role queries compute styles for the whole table and modal, slow in jsdom.
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() =>
      expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe('6 to 64 letters or digits'),
    );
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/provider/insertProvider'))).toBe(false);
  });

  it('says what a provider number may hold, never its regular expression', async () => {
    render(wrap(<ProviderManagePage />, '/?action=create'));
    await waitFor(() => expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Create provider'));
    fireEvent.change(screen.getByLabelText('Number'), { target: { value: 'a b/?' } });
    fireEvent.change(screen.getByLabelText('Login account'), { target: { value: 'ab_1' } });
    const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
    await waitFor(() => expect(errors()).toContain('1 to 32 letters, digits or hyphens'));
    expect(document.body.textContent).not.toMatch(/\^\[|\{1,32\}|\$\//);
  });

  it('filters by state and class, going back to page 1 each time', async () => {
    signInAs('SENIOR_ROLE');
    render(wrap(<ProviderManagePage />));
    await screen.findByText('Sunrise Care');
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 2, pageSize: 10 }));

    await choose('provider-filter-enabled', 'Disabled');
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, enabled: false }));

    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() => expect(lastListRequest()).toMatchObject({ pageNum: 3 }));
    await choose('provider-filter-class', 'Class 2');
    await waitFor(() =>
      expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, enabled: false, providerClass: 2 }),
    );

    await choose('provider-filter-enabled', 'Enabled');
    await waitFor(() =>
      expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, enabled: true, providerClass: 2 }),
    );
  });

  it('keeps the keyword when a filter changes', async () => {
    signInAs('SENIOR_ROLE');
    render(wrap(<ProviderManagePage />));
    await screen.findByText('Sunrise Care');
    const search = screen.getByPlaceholderText('Keyword');
    fireEvent.change(search, { target: { value: ' sun ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, keyWord: 'sun' }));
    await choose('provider-filter-class', 'Class 1');
    await waitFor(() =>
      expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, keyWord: 'sun', providerClass: 1 }),
    );
  });

  it('offers a class 1 login the state filter but not the class filter (it lists only class 2)', async () => {
    signInAs('ONE_ROLE');
    render(wrap(<ProviderManagePage />));
    await screen.findByText('Sunrise Care');
    expect(screen.getByLabelText('Status')).toBeInTheDocument();
    expect(screen.queryByTestId('provider-filter-class')).not.toBeInTheDocument();
  });
});
