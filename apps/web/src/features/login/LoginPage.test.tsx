import { fireEvent, render, screen } from '@testing-library/react';
import {
  adminLogin,
  adminPublicKey,
  adminSso,
  type EndpointResult,
  type LoginResult,
  type Role,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { LoginPage } from './LoginPage.tsx';

/** What the faked server answers; each test sets what it needs. */
interface FakeServer {
  publicKeyPem: string;
  /** The role the next login or fast login signs in as, or an inner failure status. */
  login: { role: Role } | { status: number; msg: string; msgKey: string };
}

const server: { state: FakeServer } = { state: { publicKeyPem: '', login: { role: 'SENIOR_ROLE' } } };
const loginResult = (role: Role): LoginResult => ({
  token: 'token-1',
  key: 'socket-key',
  permissionType: 0,
  voiceFlag: false,
  role,
  providerRole: null,
  uploadDataFlag: false,
  menuList: [],
  landingPath: '/realMonitor/index',
  userId: 5,
  userName: 'carehome01',
  name: 'Care Home',
  domain: null,
  providerId: null,
  providerName: null,
  providerList: [],
  currentProvider: null,
  mustChangePassword: false,
  abroad: false,
  deviceGroups: [],
});
const publicKey = (): EndpointResult<typeof adminPublicKey> => ({
  publicKey: server.state.publicKeyPem,
  algorithm: 'RSA-OAEP-256',
});

// The API client looks fetch up at each call, so replacing it here is enough.
const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  const envelope = (data: unknown, status = 200, msg = 'ok', msgKey?: string) => {
    // A fake answers only what the real server may: checked against the contract's call.
    checkFakeAnswer(path, { status, msgKey, data });
    return new Response(JSON.stringify({ status, msg, msgKey, data }), { status: 200 });
  };
  if (path === adminPublicKey.path) return envelope(publicKey());
  if (path === adminLogin.path || path === adminSso.path) {
    const answer = server.state.login;
    return 'role' in answer
      ? envelope(loginResult(answer.role))
      : envelope(null, answer.status, answer.msg, answer.msgKey);
  }
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }), { status: 200 });
});
globalThis.fetch = fetchMock as unknown as typeof fetch;

let i18n: I18n;
let privateKey: CryptoKey;

/** PEM of an SPKI public key, as GET /admin/publicKey serves it. */
const toPem = (spki: ArrayBuffer): string => {
  let binary = '';
  for (const b of new Uint8Array(spki)) binary += String.fromCharCode(b);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return ['-----BEGIN PUBLIC KEY-----', ...lines, '-----END PUBLIC KEY-----'].join('\n');
};

/** The server's side of `rsa: true`: RSA-OAEP (SHA-256) decryption of the base64 password. */
const decrypt = async (base64: string): Promise<string> => {
  const cipher = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, cipher));
};

/**
 * Real WebCrypto, with one adapter: under vitest's jsdom environment `ArrayBuffer` is jsdom's, and Node's
 * WebCrypto refuses an ArrayBuffer from another realm (views are fine). The page passes the key's DER as a
 * bare ArrayBuffer, so hand Node a view of the same bytes. Encryption itself is untouched.
 */
const acceptForeignRealmKeyData = () => {
  const subtle = crypto.subtle;
  const importKey = subtle.importKey.bind(subtle);
  vi.spyOn(subtle, 'importKey').mockImplementation(
    (format: Exclude<KeyFormat, 'jwk'>, keyData: BufferSource, algorithm, extractable, keyUsages) =>
      importKey(
        format,
        keyData instanceof ArrayBuffer ? new Uint8Array(keyData) : keyData,
        algorithm,
        extractable,
        keyUsages,
      ),
  );
};

beforeAll(async () => {
  i18n = await englishI18n();
  acceptForeignRealmKeyData();
  // A real key pair: the page encrypts with WebCrypto exactly as in the browser, and the test decrypts.
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  privateKey = pair.privateKey;
  server.state.publicKeyPem = toPem(await crypto.subtle.exportKey('spki', pair.publicKey));
});
beforeEach(() => {
  server.state.login = { role: 'SENIOR_ROLE' };
  fetchMock.mockClear();
});
afterEach(() => sessionStore.reset());

/** Shows where the page navigated to after signing in. */
const WhereAmI = () => {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
};

const renderLogin = (path = '/login') =>
  render(
    inTestShell(
      i18n,
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<WhereAmI />} />
      </Routes>,
      path,
    ),
  );

const requestsTo = (path: string) => fetchMock.mock.calls.filter(([url]) => url.includes(path));
const loginBody = () => JSON.parse(String(requestsTo('/admin/login')[0]?.[1]?.body)) as Record<string, unknown>;

const fillIn = (account: string, password: string) => {
  fireEvent.change(screen.getByTestId('login-user'), { target: { value: account } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
};
const submit = () => fireEvent.click(screen.getByTestId('login-submit'));

describe('LoginPage', () => {
  it('asks for the account and the password before calling the server', async () => {
    renderLogin();
    submit();
    expect(await screen.findByText('Please enter the account')).toBeInTheDocument();
    expect(screen.getByText('Please enter the password')).toBeInTheDocument();
    expect(screen.getByTestId('login-user')).toHaveAttribute('aria-invalid', 'true');

    // A blank account counts as missing; the password message goes once it is typed.
    fillIn('   ', 'Secret#123');
    submit();
    expect(await screen.findByText('Please enter the account')).toBeInTheDocument();
    expect(screen.queryByText('Please enter the password')).not.toBeInTheDocument();
    expect(requestsTo('/admin/login')).toEqual([]);
  });

  it('checks the login-page rule (6 to 16 characters, no Chinese) before calling the server', async () => {
    renderLogin();
    fillIn('manager', 'abc12');
    submit();
    expect(await screen.findByText('The password has 6 to 16 characters')).toBeInTheDocument();
    fillIn('manager', '密码Secret#123');
    submit();
    expect(await screen.findByText('The password cannot contain Chinese characters')).toBeInTheDocument();
    expect(requestsTo('/admin/login')).toEqual([]);
  });

  it('signs in with the RSA-encrypted password and goes to the landing page', async () => {
    renderLogin();
    fillIn('  carehome01 ', 'Secret#123');
    submit();
    expect(await screen.findByTestId('location')).toHaveTextContent('/realMonitor/index');
    const body = loginBody();
    expect(body).toMatchObject({ userName: 'carehome01', rsa: true, from: 'PC' });
    expect(body.passWord).not.toBe('Secret#123');
    expect(await decrypt(String(body.passWord))).toBe('Secret#123');
    expect(window.localStorage.getItem('token')).toBe('token-1');
  });

  it('goes back to the page in ?redirect after signing in', async () => {
    renderLogin('/login?redirect=%2Fsettings%2FplatSet');
    fillIn('carehome01', 'Secret#123');
    submit();
    expect(await screen.findByTestId('location')).toHaveTextContent('/settings/platSet');
  });

  it('shows the wrong-credentials text for status 102 and stays signed out', async () => {
    server.state.login = { status: 102, msg: 'Account or password wrong.', msgKey: 'login.wrong' };
    renderLogin();
    fillIn('carehome01', 'wrong-pass');
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Account or password is wrong. If you cannot recover it, contact the administrator.',
    );
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('refuses a non-government account signing in as a government viewer', async () => {
    server.state.login = { role: 'SUB_ROLE' };
    renderLogin();
    fillIn('carehome01', 'Secret#123');
    fireEvent.click(screen.getByRole('radio', { name: 'Government viewer' }));
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This account has no access rights here. Please confirm the account.',
    );
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('lets a government account sign in as a government viewer', async () => {
    server.state.login = { role: 'GOVERNMENT' };
    renderLogin();
    fillIn('carehome01', 'Secret#123');
    fireEvent.click(screen.getByRole('radio', { name: 'Government viewer' }));
    submit();
    expect(await screen.findByTestId('location')).toHaveTextContent('/realMonitor/index');
  });

  it('remembers only the account name, never the password', async () => {
    renderLogin();
    fillIn('carehome01', 'Secret#123');
    fireEvent.click(screen.getByTestId('login-remember'));
    submit();
    await screen.findByTestId('location');
    expect(window.localStorage.getItem('rememberedUser')).toBe('carehome01');
    const stored = Object.keys(window.localStorage).map((key) => window.localStorage.getItem(key) ?? '');
    expect(stored.filter((value) => value.includes('Secret#123'))).toEqual([]);
  });

  it('fills in the remembered account and forgets it when unticked', async () => {
    window.localStorage.setItem('rememberedUser', 'carehome01');
    renderLogin();
    expect(screen.getByTestId('login-user')).toHaveValue('carehome01');
    // The password is left to the browser's credential manager.
    expect(screen.getByTestId('login-password')).toHaveValue('');
    expect(screen.getByTestId('login-password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByTestId('login-remember')).toBeChecked();
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByTestId('login-remember'));
    submit();
    await screen.findByTestId('location');
    expect(window.localStorage.getItem('rememberedUser')).toBeNull();
  });

  it('signs in through /admin/sso from the fast-login query parameters', async () => {
    const signature = 'ab'.repeat(32);
    renderLogin(`/login?userName=carehome01&secretPassword=${signature}&timestamp=1760000000`);
    expect(await screen.findByTestId('location')).toHaveTextContent('/realMonitor/index');
    const [sso] = requestsTo('/admin/sso');
    expect(Object.fromEntries(new URLSearchParams(String(sso?.[1]?.body)))).toEqual({
      userName: 'carehome01',
      secretPassword: signature,
      timestamp: '1760000000',
      from: 'PC',
    });
    expect(requestsTo('/admin/login')).toEqual([]);
    expect(window.localStorage.getItem('fastLogin')).toBe('true');
  });

  it('falls back to the form when fast login fails', async () => {
    server.state.login = { status: 300, msg: 'Signature wrong.', msgKey: 'sso.signature' };
    renderLogin(`/login?userName=carehome01&secretPassword=${'cd'.repeat(32)}&timestamp=1760000000`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Fast login failed. Please sign in with your account.');
    expect(screen.getByTestId('login-form')).toBeInTheDocument();
    expect(requestsTo('/admin/sso')).toHaveLength(1);
  });
});
