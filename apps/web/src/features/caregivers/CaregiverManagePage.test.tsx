import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';

import CaregiverManagePage from './CaregiverManagePage.tsx';
import { caregiverRow, FakeXhr, installFakeServer } from './test-support.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { sessionInfo } from '../../test/session-info.ts';

const server = installFakeServer();

const LIST = '/nursing/queryNursingList';

// antd's motion and the picker's search delay are slow in jsdom on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  server.reset();
  server.routes.set(LIST, () => ({
    data: {
      rows: [
        caregiverRow(),
        caregiverRow({
          id: 6,
          name: 'Chen Jing',
          phone: '+447700900123',
          userName: null,
          job: null,
          level: 'normal',
          enabled: false,
          residents: [],
        }),
      ],
      // Enough for three pages, so a filter can be seen to go back to page 1.
      total: 25,
      pageNum: 1,
      pageSize: 10,
    },
  }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.reset();
});

const open = async () => {
  render(inTestShell(i18n, <CaregiverManagePage />));
  await screen.findByText('Wang Fang');
};
const lastListRequest = () => server.bodiesTo(LIST).at(-1);
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
/** Opens an antd Select by its test id and clicks the option showing `label`. */
const choose = async (testId: string, label: string) => {
  fireEvent.mouseDown(screen.getByTestId(testId));
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
      (o) => o.textContent === label,
    );
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
};
/** Opens a row's "More" menu and picks `label`. */
const fromMore = async (name: string, label: string) => {
  fireEvent.click(within(rowOf(name)).getByTestId('caregiver-more'));
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item')].find(
      (i) => i.textContent === label,
    );
    if (!found) throw new Error(`no menu item ${label}`);
    return found;
  });
  fireEvent.click(item);
};
/** The open confirmation's text and its OK button. */
const confirmation = async () => {
  const dialog = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.ant-modal-confirm');
    if (!found) throw new Error('no confirmation');
    return found;
  });
  return {
    text: dialog.textContent ?? '',
    ok: () => fireEvent.click(dialog.querySelector('.ant-btn-primary') as HTMLElement),
  };
};

describe('CaregiverManagePage', () => {
  it('lists caregivers with phone, app account, job, level, linked residents and state', async () => {
    await open();
    const wang = within(rowOf('Wang Fang'));
    expect(wang.getByText('13812345678')).toBeInTheDocument();
    expect(wang.getByText('wangfang01')).toBeInTheDocument();
    expect(wang.getByText('Nursing assistant')).toBeInTheDocument();
    expect(wang.getByText('Lead caregiver')).toBeInTheDocument();
    expect(wang.getByTestId('resident-count').textContent).toBe('2');
    expect(wang.getByText('Enabled')).toBeInTheDocument();
    const chen = within(rowOf('Chen Jing'));
    expect(chen.getByText('General caregiver')).toBeInTheDocument();
    expect(chen.getByText('Disabled')).toBeInTheDocument();
    expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10 });
  });

  it('names the linked residents on hover', async () => {
    await open();
    fireEvent.mouseEnter(within(rowOf('Wang Fang')).getByTestId('resident-count'));
    expect(await screen.findByText('Li Hua, Zhao Lei')).toBeInTheDocument();
  });

  it('sends keyword, level, state and page, going back to page 1 on each filter', async () => {
    await open();
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 2, pageSize: 10 }));

    await choose('caregiver-filter-level', 'Lead caregiver');
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, level: 'lead' }));

    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() => expect(lastListRequest()).toMatchObject({ pageNum: 3 }));
    await choose('caregiver-filter-enabled', 'Disabled');
    await waitFor(() => expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, level: 'lead', enabled: false }));

    const search = screen.getByPlaceholderText('Name, phone or login account');
    fireEvent.change(search, { target: { value: ' 138 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(lastListRequest()).toEqual({ pageNum: 1, pageSize: 10, level: 'lead', enabled: false, keyWord: '138' }),
    );
  });

  it('disables after a confirmation saying the app sessions end', async () => {
    await open();
    fireEvent.click(within(rowOf('Wang Fang')).getByText('Disable'));
    const dialog = await confirmation();
    expect(dialog.text).toContain('signed out of the caregiver app at once');
    expect(server.bodiesTo('/nursing/operate')).toEqual([]);
    dialog.ok();
    await waitFor(() => expect(server.bodiesTo('/nursing/operate')).toEqual([{ id: 5, type: 'disable' }]));
    expect(await screen.findByText('Disabled. Their app sessions have ended.')).toBeInTheDocument();
  });

  it('enables a disabled caregiver at once', async () => {
    await open();
    fireEvent.click(within(rowOf('Chen Jing')).getByText('Enable'));
    await waitFor(() => expect(server.bodiesTo('/nursing/operate')).toEqual([{ id: 6, type: 'enable' }]));
  });

  it('resets the app password and shows the new one once, with the login account', async () => {
    server.routes.set('/nursing/resetPassword', () => ({ data: { initialPassword: 'Qx7#mP2kLa' } }));
    await open();
    await fromMore('Wang Fang', 'Reset password');
    const dialog = await confirmation();
    expect(dialog.text).toContain('Reset the app password of Wang Fang?');
    dialog.ok();
    expect((await screen.findByTestId('app-password')).textContent).toBe('Qx7#mP2kLa');
    expect(server.bodiesTo('/nursing/resetPassword')).toEqual([{ id: 5 }]);
    const shown = screen.getByTestId('app-credentials');
    expect(within(shown).getByText('wangfang01')).toBeInTheDocument();
    expect(shown.textContent).toContain('shown only now');
  });

  it('deletes after a confirmation saying the app account is cancelled', async () => {
    await open();
    await fromMore('Wang Fang', 'Delete');
    const dialog = await confirmation();
    expect(dialog.text).toContain('their app account is cancelled');
    dialog.ok();
    await waitFor(() => expect(server.bodiesTo('/nursing/deleteNursing')).toEqual([{ id: 5 }]));
    expect(await screen.findByText('Deleted. The app account is cancelled.')).toBeInTheDocument();
  });

  it("shows the server's message when an action is refused", async () => {
    server.routes.set('/nursing/deleteNursing', () => ({
      status: 400,
      msg: 'The record does not exist or is not visible to you.',
      msgKey: 'not_found',
    }));
    await open();
    await fromMore('Wang Fang', 'Delete');
    (await confirmation()).ok();
    expect(await screen.findByText('The record does not exist or is not visible to you.')).toBeInTheDocument();
    expect(screen.queryByText('Deleted. The app account is cancelled.')).not.toBeInTheDocument();
  });

  it('uses the wording of an international care home in the overseas edition', async () => {
    // The server says so in the session info (decision 0033), never a flag set in the browser.
    sessionStore.setInfo(sessionInfo({ role: 'TWO_ROLE', providerRole: 'TWO_ROLE', abroad: true }));
    await open();
    // The heading is the screen's one name, as its menu entry and tab say; the wording below is overseas.
    expect(screen.getByTestId('screen-title')).toHaveTextContent('Caregivers');
    expect(screen.getByText('Add care staff member')).toBeInTheDocument();
    expect(within(rowOf('Wang Fang')).getByText('Senior carer')).toBeInTheDocument();
    fireEvent.click(within(rowOf('Wang Fang')).getByText('Disable'));
    expect((await confirmation()).text).toContain('signed out of the care app');
  });

  it("exports with the list's filters and no paging", async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    // jsdom cannot follow the download link the file is handed over with.
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    server.routes.set(
      '/nursing/exportData',
      () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'application/octet-stream' } }),
    );
    await open();
    await choose('caregiver-filter-level', 'General caregiver');
    await waitFor(() => expect(lastListRequest()).toMatchObject({ level: 'normal' }));
    fireEvent.click(screen.getByTestId('export'));
    await waitFor(() => expect(server.bodiesTo('/nursing/exportData')).toEqual([{ level: 'normal' }]));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    click.mockRestore();
  });

  it('after an import, shows the created app accounts and their passwords once, copyable', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await open();
    fireEvent.click(screen.getByTestId('caregiver-import'));
    const input = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>('input[type=file]');
      if (!found) throw new Error('no file input');
      return found;
    });
    fireEvent.change(input, { target: { files: [new File(['x'], 'staff.xlsx')] } });
    fireEvent.click(await screen.findByTestId('import-start'));
    expect(FakeXhr.last?.url).toBe('/nursing/batchAdd');
    const listsBefore = server.bodiesTo(LIST).length;
    act(() =>
      FakeXhr.last?.answer({
        status: 200,
        msg: 'ok',
        data: {
          imported: 2,
          accounts: [
            { name: 'Sun Li', userName: '13900000001', initialPassword: 'Aa1#aaaaaa' },
            { name: 'Zhou Min', userName: 'zhoumin01', initialPassword: 'Bb2#bbbbbb' },
          ],
        },
      }),
    );
    const table = await screen.findByTestId('imported-accounts');
    expect(within(table).getByText('Aa1#aaaaaa')).toBeInTheDocument();
    expect(within(table).getByText('zhoumin01')).toBeInTheDocument();
    expect(screen.getByTestId('imported-warning').textContent).toContain('shown only now');
    expect(screen.getByText('2 caregiver app accounts created')).toBeInTheDocument();
    // The list reloads to show the new caregivers.
    await waitFor(() => expect(server.bodiesTo(LIST).length).toBeGreaterThan(listsBefore));

    fireEvent.click(screen.getByTestId('imported-copy-all'));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        'Name\tLogin account\tInitial password\nSun Li\t13900000001\tAa1#aaaaaa\nZhou Min\tzhoumin01\tBb2#bbbbbb',
      ),
    );
    fireEvent.click(screen.getByTestId('imported-close'));
    await waitFor(() => expect(screen.queryByTestId('imported-accounts')).not.toBeInTheDocument());
  });
});
