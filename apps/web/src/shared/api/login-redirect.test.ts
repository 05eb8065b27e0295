import { describe, expect, it } from 'vitest';
import { loginRedirectPath } from './client.ts';

const loc = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('loginRedirectPath', () => {
  it('remembers the full path, query and hash', () => {
    expect(loginRedirectPath(loc('/settings/platSet'))).toBe('/login?redirect=%2Fsettings%2FplatSet');
    const path = loginRedirectPath(loc('/realMonitor/resident', '?id=3&x=a b', '#top'));
    expect(path.startsWith('/login?redirect=')).toBe(true);
    expect(new URLSearchParams(path.slice('/login'.length)).get('redirect')).toBe(
      '/realMonitor/resident?id=3&x=a b#top',
    );
  });

  it('does not nest the login page', () => {
    expect(loginRedirectPath(loc('/login'))).toBe('/login');
    expect(loginRedirectPath(loc('/login', '?redirect=%2Fx'))).toBe('/login');
  });

  it('the root path is still remembered', () => {
    expect(loginRedirectPath(loc('/'))).toBe('/login?redirect=%2F');
  });
});
