import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { adminUpdatePassword } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../shared/session/session-store.ts';
import { checkFakeAnswer } from '../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { PlatformNameDialog } from './PlatformNameDialog.tsx';
import { sessionInfo } from '../test/session-info.ts';

vi.mock('../shared/api/rsa.ts', () => ({ encryptPassword: (password: string) => Promise.resolve(password) }));

interface Envelope {
  status: number;
  msg: string;
  msgKey?: string;
  field?: string;
  data: unknown;
}
/** The server's answer to the password change; the test sets it. */
const answers: { update: Envelope } = { update: { status: 200, msg: 'ok', data: null } };

// The API client looks fetch up at each call, so replacing it here is enough.
const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  if (path === adminUpdatePassword.path) {
    // A fake answers only what the real server may: checked against the contract's call.
    checkFakeAnswer(path, answers.update);
    return new Response(JSON.stringify(answers.update), { status: 200 });
  }
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }), { status: 200 });
});
globalThis.fetch = fetchMock as unknown as typeof fetch;

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
afterEach(() => {
  answers.update = { status: 200, msg: 'ok', data: null };
  sessionStore.reset();
  fetchMock.mockClear();
});

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
/** The error shown under the field holding `testId`. */
const errorOf = (testId: string) =>
  screen.getByTestId(testId).closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')?.textContent;
const sent = (path: string) => fetchMock.mock.calls.filter(([url]) => url.includes(path));

describe('PasswordDialog', () => {
  const open = () => {
    sessionStore.setInfo(sessionInfo({ userName: 'senior01', role: 'SENIOR_ROLE' }));
    render(inTestShell(i18n, <PasswordDialog open onClose={() => undefined} />));
  };
  const confirm = () => fireEvent.click(screen.getByText('Confirm'));

  it('marks the field a check fails on, and sends nothing', async () => {
    open();
    confirm();
    await waitFor(() => expect(errorOf('old-password')).toBe(i18n.t('password.full')));
    type('old-password', 'Old#Pass2026');
    type('new-password', 'New#Pass2026');
    type('confirm-password', 'New#Pass2027');
    confirm();
    await waitFor(() => expect(errorOf('confirm-password')).toBe(i18n.t('password.inconsistent')));
    expect(sent('/admin/updatePassword')).toHaveLength(0);
  });

  it("puts the server's refusal on the field it names (a wrong old password on the old one)", async () => {
    answers.update = {
      status: 104,
      msg: 'The old password is wrong.',
      msgKey: 'password.old_wrong',
      field: 'oldPassWord',
      data: null,
    };
    open();
    type('old-password', 'Wrong#Pass2026');
    type('new-password', 'New#Pass2026');
    type('confirm-password', 'New#Pass2026');
    confirm();
    await waitFor(() => expect(errorOf('old-password')).toBe('The old password is wrong.'));
    expect(errorOf('new-password')).toBeUndefined();
    expect(sent('/admin/updatePassword')).toHaveLength(1);
  });
});

describe('PlatformNameDialog', () => {
  it('saves with Enter in its one field, once, and refuses an empty name without a request', async () => {
    render(inTestShell(i18n, <PlatformNameDialog open onClose={() => undefined} />));
    const form = await screen.findByTestId('platform-name-dialog');
    const input = form.querySelector('input');
    if (!input) throw new Error('no input');
    fireEvent.change(input, { target: { value: '  ' } });
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByText(i18n.t('platformName.rule'))).toBeInTheDocument());
    expect(sent('/system/platformName/post')).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'Birch Care' } });
    fireEvent.submit(form);
    await waitFor(() => expect(sent('/system/platformName/post')).toHaveLength(1));
    expect(JSON.parse(String(sent('/system/platformName/post')[0]?.[1]?.body))).toEqual({ platformName: 'Birch Care' });
  });
});
