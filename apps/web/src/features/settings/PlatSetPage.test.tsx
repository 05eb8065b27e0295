import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  getPlatformName,
  postPlatformName,
  uploadLogo,
  type EndpointResult,
  type PlatformInfo,
  type SessionInfo,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import PlatSetPage from './PlatSetPage.tsx';
import { sessionInfo } from '../../test/session-info.ts';

/** What the fake server holds, and how it answers a rename when a test says so. */
const state = {
  platform: { platformName: 'Vigil Care Cloud', logoUrl: null } as PlatformInfo,
  renameAnswer: null as null | { status: number; msg: string },
};
const uploaded: EndpointResult<typeof uploadLogo> = {
  url: '/system/file?id=22222222-2222-4222-8222-222222222222',
  size: 10,
};

// The API client looks fetch up at each call, so replacing it here is enough.
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = (data: unknown, status = 200, msg = 'ok') => {
    // A fake answers only what the real server may: checked against the contract's call.
    checkFakeAnswer(path, { status, data });
    return new Response(JSON.stringify({ status, msg, data }), { status: 200 });
  };
  if (path === getPlatformName.path) return envelope({ ...state.platform });
  if (path === postPlatformName.path) {
    if (state.renameAnswer) return envelope(null, state.renameAnswer.status, state.renameAnswer.msg);
    const body = JSON.parse(String(init?.body)) as { platformName: string; logoUrl?: string | null };
    state.platform.platformName = body.platformName;
    if (body.logoUrl !== undefined) state.platform.logoUrl = body.logoUrl;
    return envelope(null);
  }
  if (path === uploadLogo.path) return envelope(uploaded);
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }), { status: 200 });
});
globalThis.fetch = fetchMock as unknown as typeof fetch;

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  state.platform = { platformName: 'Vigil Care Cloud', logoUrl: null };
  state.renameAnswer = null;
  fetchMock.mockClear();
});
afterEach(() => sessionStore.reset());

const wrap = (node: ReactNode) => inTestShell(i18n, node);
const signInAs = (role: SessionInfo['role']) => sessionStore.setInfo(sessionInfo({ role }));
const renameRequests = () =>
  fetchMock.mock.calls
    .filter(([url]) => url.includes('/system/platformName/post'))
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('PlatSetPage', () => {
  it('shows the current platform name and logo rule', async () => {
    signInAs('SENIOR_ROLE');
    render(wrap(<PlatSetPage />));
    await waitFor(() => expect(screen.getByLabelText('Platform name')).toHaveValue('Vigil Care Cloud'));
    expect(screen.getByText('PNG, 200 × 200 pixels, under 100 KB')).toBeInTheDocument();
    expect(screen.getByTestId('platset-logo-none')).toHaveTextContent('No logo');
  });

  it('refuses a logo that is not a PNG without uploading it', async () => {
    signInAs('ONE_ROLE');
    const { container } = render(wrap(<PlatSetPage />));
    await screen.findByTestId('platset-logo-upload');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File(['x'], 'logo.jpg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('The logo must be a PNG image.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/system/upload'))).toBe(false);
  });

  it('refuses a PNG of 100 KB or more', async () => {
    signInAs('TWO_ROLE');
    const { container } = render(wrap(<PlatSetPage />));
    await screen.findByTestId('platset-logo-upload');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File([new Uint8Array(100 * 1024)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('The logo must be under 100 KB.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/system/upload'))).toBe(false);
  });

  describe('platform name', () => {
    it.each(['SUB_ROLE', 'GOVERNMENT', 'SUPER_ROLE'] as const)(
      'is read-only for %s, which the server does not let change it',
      async (role) => {
        signInAs(role);
        render(wrap(<PlatSetPage />));
        expect(await screen.findByTestId('platset-name')).toHaveTextContent('Vigil Care Cloud');
        expect(
          screen.getByText('You cannot change this name here; please ask your administrator.'),
        ).toBeInTheDocument();
        expect(screen.queryByLabelText('Platform name')).not.toBeInTheDocument();
        expect(screen.queryByTestId('platset-save')).not.toBeInTheDocument();
        expect(screen.queryByTestId('platset-logo-upload')).not.toBeInTheDocument();
      },
    );

    it('lets a class 1 provider save its own name, saying who sees it, and leaves an unchanged logo out', async () => {
      signInAs('ONE_ROLE');
      state.platform.logoUrl = '/system/file?id=11111111-1111-4111-8111-111111111111';
      render(wrap(<PlatSetPage />));
      const input = await screen.findByLabelText('Platform name');
      await waitFor(() => expect(input).toHaveValue('Vigil Care Cloud'));
      expect(screen.getByText(/Your provider's accounts see this name and logo/)).toBeInTheDocument();
      expect(screen.getByTestId('platset-logo-preview')).toBeInTheDocument();
      fireEvent.change(input, { target: { value: 'Group Portal' } });
      fireEvent.click(screen.getByTestId('platset-save'));
      expect(await screen.findByText('Saved.')).toBeInTheDocument();
      expect(renameRequests()).toEqual([{ platformName: 'Group Portal' }]);
      expect(document.title).toBe('Group Portal');
    });

    it('removes the logo when asked and saves the removal', async () => {
      signInAs('TWO_ROLE');
      state.platform.logoUrl = '/system/file?id=11111111-1111-4111-8111-111111111111';
      render(wrap(<PlatSetPage />));
      fireEvent.click(await screen.findByTestId('platset-logo-remove'));
      expect(screen.getByTestId('platset-logo-none')).toBeInTheDocument();
      fireEvent.click(screen.getByTestId('platset-save'));
      expect(await screen.findByText('Saved.')).toBeInTheDocument();
      expect(renameRequests()).toEqual([{ platformName: 'Vigil Care Cloud', logoUrl: null }]);
    });

    it('lets the senior administrator save a trimmed new name and refreshes the title and stored name', async () => {
      signInAs('SENIOR_ROLE');
      render(wrap(<PlatSetPage />));
      const input = await screen.findByLabelText('Platform name');
      await waitFor(() => expect(input).toHaveValue('Vigil Care Cloud'));
      fireEvent.change(input, { target: { value: '  Sunrise Cloud  ' } });
      fireEvent.click(screen.getByTestId('platset-save'));
      expect(await screen.findByText('Saved.')).toBeInTheDocument();
      expect(renameRequests()).toEqual([{ platformName: 'Sunrise Cloud' }]);
      expect(document.title).toBe('Sunrise Cloud');
      expect(window.localStorage.getItem('platName')).toBe('Sunrise Cloud');
      // The shared platform query is read again, so the layout and this page show the server's name.
      await waitFor(() =>
        expect(fetchMock.mock.calls.filter(([url]) => url.includes('/system/platformName/get')).length).toBe(2),
      );
      await waitFor(() => expect(input).toHaveValue('Sunrise Cloud'));
    });

    it.each([
      ['an empty', ''],
      ['a blank', '    '],
    ])('refuses %s name without calling the server', async (_case, value) => {
      signInAs('SENIOR_ROLE');
      render(wrap(<PlatSetPage />));
      const input = await screen.findByLabelText('Platform name');
      await waitFor(() => expect(input).toHaveValue('Vigil Care Cloud'));
      fireEvent.change(input, { target: { value } });
      fireEvent.click(screen.getByTestId('platset-save'));
      expect(await screen.findByText('The platform name must be 1 to 20 characters')).toBeInTheDocument();
      expect(renameRequests()).toEqual([]);
      expect(window.localStorage.getItem('platName')).toBeNull();
    });

    it("shows the server's message when the rename is refused and keeps the stored name", async () => {
      signInAs('SENIOR_ROLE');
      state.renameAnswer = { status: 300, msg: 'No permission.' };
      document.title = 'Vigil Care Cloud';
      render(wrap(<PlatSetPage />));
      const input = await screen.findByLabelText('Platform name');
      await waitFor(() => expect(input).toHaveValue('Vigil Care Cloud'));
      fireEvent.change(input, { target: { value: 'Other Name' } });
      fireEvent.click(screen.getByTestId('platset-save'));
      expect(await screen.findByText('No permission.')).toBeInTheDocument();
      expect(document.title).toBe('Vigil Care Cloud');
      expect(window.localStorage.getItem('platName')).toBeNull();
    });
  });
});
