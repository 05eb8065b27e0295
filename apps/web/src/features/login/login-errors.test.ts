import { ApiError, Status } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { afterLoginPath } from './LoginPage.tsx';
import { loginErrorMessage } from './login-errors.ts';

const t = (key: string) => `t:${key}`;
const err = (status: number, message: string, msgKey?: string) => new ApiError(status, message, msgKey, 200);

describe('loginErrorMessage', () => {
  it('wrong credentials (102)', () => {
    expect(Status.WRONG_CREDENTIALS).toBe(102);
    expect(loginErrorMessage(err(102, 'server text'), t)).toBe('t:login.error.102');
  });

  it('disabled account (107)', () => {
    expect(Status.ACCOUNT_DISABLED).toBe(107);
    expect(loginErrorMessage(err(107, 'server text'), t)).toBe('t:login.error.107');
  });

  it('no access', () => {
    expect(loginErrorMessage(err(103, 'server text', 'login.noAccess'), t)).toBe('t:login.error.noAccess');
  });

  it('lockout and rate limit use the server message', () => {
    expect(loginErrorMessage(err(108, 'Locked for 5 minutes', 'login.locked'), t)).toBe('Locked for 5 minutes');
    expect(loginErrorMessage(err(429, 'Slow down: 30 s', 'login.rateLimited'), t)).toBe('Slow down: 30 s');
  });

  it('anything else is the generic message', () => {
    expect(loginErrorMessage(err(500, 'boom'), t)).toBe('t:login.error.other');
    expect(loginErrorMessage(err(1, 'boom', 'something.else'), t)).toBe('t:login.error.other');
    expect(loginErrorMessage(new Error('network'), t)).toBe('t:login.error.other');
    expect(loginErrorMessage('nope', t)).toBe('t:login.error.other');
    expect(loginErrorMessage(undefined, t)).toBe('t:login.error.other');
  });
});

describe('afterLoginPath', () => {
  const result = { landingPath: '/realMonitor/index' };

  it('uses a console path redirect', () => {
    expect(afterLoginPath('/settings/platSet', result)).toBe('/settings/platSet');
    expect(afterLoginPath('/realMonitor/resident?id=3#x', result)).toBe('/realMonitor/resident?id=3#x');
  });

  it('falls back to the landing page for missing or unsafe redirects', () => {
    for (const bad of [
      null,
      '',
      '//evil.com',
      '//evil.com/path',
      '/\\evil.com',
      'https://evil.com',
      'http://evil.com/settings',
      'javascript:alert(1)',
      'settings/platSet',
      '/login',
      '/login?redirect=%2Fx',
    ]) {
      expect(afterLoginPath(bad, result), String(bad)).toBe('/realMonitor/index');
    }
  });
});
