import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { alertFlag, getPlatformName, type LoginResult, type Role } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router';
import { sessionStore } from '../shared/session/session-store.ts';
import { checkFakeAnswer } from '../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { Navbar } from './Navbar.tsx';

vi.setConfig({ testTimeout: 60_000 });

/** What the fake server says of pending alarms. */
let flag = { flag: true, count: 2 };
const fetchMock = vi.fn(async (url: string) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = (data: unknown) => {
    checkFakeAnswer(path, { status: 200, data });
    return new Response(JSON.stringify({ status: 200, msg: 'ok', data }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  if (path === alertFlag.path) return envelope({ ...flag });
  if (path === getPlatformName.path) return envelope({ platformName: 'Vigil Care Cloud', logoUrl: null });
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }));
});
const flagRequests = () => fetchMock.mock.calls.filter(([url]) => url.startsWith(alertFlag.path)).length;

const signInAs = (role: Role) =>
  sessionStore.signIn({
    token: 'test-token',
    key: 'k',
    permissionType: 0,
    voiceFlag: true,
    role,
    providerRole: null,
    uploadDataFlag: false,
    menuList: [],
    landingPath: '/',
    userId: 1,
    userName: 'carer01',
    name: 'Chen',
    domain: null,
    providerId: null,
    providerName: null,
    providerList: [],
    currentProvider: null,
    mustChangePassword: false,
    abroad: false,
    deviceGroups: [],
  } satisfies LoginResult);

/** Where the router is: the bell navigates. */
const WhereAmI = () => <span data-testid="where">{useLocation().pathname}</span>;

let i18n: I18n;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  flag = { flag: true, count: 2 };
  fetchMock.mockClear();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  sessionStore.reset();
});
const show = () =>
  render(
    inTestShell(
      i18n,
      <>
        <Navbar collapsed={false} onToggle={() => undefined} />
        <WhereAmI />
      </>,
      '/realMonitor/index',
    ),
  );
const dotShown = () => screen.getByTestId('nav-bell').querySelector('.ant-badge-dot') !== null;

describe('Navbar alarm bell', () => {
  it('shows its dot while some alarm is pending, and opens the alarm log', async () => {
    signInAs('CARER');
    show();
    await waitFor(() => expect(dotShown()).toBe(true));
    expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '2');
    expect(flagRequests()).toBe(1);
    fireEvent.click(screen.getByTestId('nav-alarms'));
    expect(screen.getByTestId('where')).toHaveTextContent('/alarm-log/alarmIndex');
  });

  it('shows no dot when nothing is pending', async () => {
    flag = { flag: false, count: 0 };
    signInAs('SOCIAL_WORKER');
    show();
    // The answer has arrived once the bell carries its count.
    await waitFor(() => expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '0'));
    expect(dotShown()).toBe(false);
    expect(flagRequests()).toBe(1);
  });

  it('asks again every minute', async () => {
    signInAs('CARER');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      show();
      await waitFor(() => expect(dotShown()).toBe(true));
      flag = { flag: false, count: 0 };
      await vi.advanceTimersByTimeAsync(59_000);
      expect(flagRequests()).toBe(1);
      await vi.advanceTimersByTimeAsync(1_500);
      await waitFor(() => expect(screen.getByTestId('nav-bell')).toHaveAttribute('data-pending', '0'));
      expect(dotShown()).toBe(false);
      expect(flagRequests()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is not shown, and not asked for, where the alarm log is not allowed', async () => {
    signInAs('SENIOR_ROLE');
    show();
    await screen.findByTestId('navbar');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url.startsWith(getPlatformName.path))).toBe(true));
    expect(screen.queryByTestId('nav-bell')).not.toBeInTheDocument();
    expect(flagRequests()).toBe(0);
  });
});
