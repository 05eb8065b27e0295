import { render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { loginResult } from '../../test/session-info.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { NoPermissionPage, NotFoundPage } from './ErrorPages.tsx';

describe('error pages', () => {
  let i18n: I18n;
  beforeAll(async () => {
    i18n = await englishI18n();
  });
  afterEach(() => sessionStore.reset());

  it('says a page does not exist, with the way home and, signed out, no sign-out', () => {
    render(inTestShell(i18n, <NotFoundPage />));
    expect(screen.getByText('Page not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to the home page' })).toBeInTheDocument();
    expect(screen.queryByTestId('error-sign-out')).not.toBeInTheDocument();
  });

  it('tells an account that may open a page elsewhere that it may not open this one', () => {
    sessionStore.signIn(loginResult({ role: 'TWO_ROLE', providerRole: 'TWO_ROLE' }));
    render(inTestShell(i18n, <NoPermissionPage />));
    expect(screen.getByText('No permission')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to the home page' })).toBeInTheDocument();
    expect(screen.getByTestId('error-sign-out')).toBeInTheDocument();
  });

  it('tells a government viewer that no screen is open to it yet, and lets it sign out (issue 29, point 11)', () => {
    sessionStore.signIn(loginResult({ role: 'GOVERNMENT', landingPath: '/noPermission' }));
    render(inTestShell(i18n, <NoPermissionPage />));
    expect(screen.getByText('No screens yet')).toBeInTheDocument();
    // Home would lead back here: only signing out is offered.
    expect(screen.queryByRole('button', { name: 'Back to the home page' })).not.toBeInTheDocument();
    expect(screen.getByTestId('error-sign-out')).toHaveTextContent('Sign out');
  });
});
