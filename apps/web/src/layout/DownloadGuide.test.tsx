import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ProviderRole, Role } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useLocation } from 'react-router';
import { allowedRoutes, routeForPath } from '../shared/routing/route-access.ts';
import { accessFrom } from '../shared/session/access.ts';
import { sessionStore } from '../shared/session/session-store.ts';
import { StorageKey, storage } from '../shared/storage.ts';
import { sessionInfo } from '../test/session-info.ts';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { DownloadGuide, GUIDE_TARGETS, guideActions, type GuideAction } from './DownloadGuide.tsx';

const RESIDENTS = '/people-manage/userManage';
const ACCOUNTS = '/permission/accountmanager';

const house = { id: 2, name: 'Oak House', domain: 'oak.house', available: true };

const signInAs = (role: Role, providerRole: ProviderRole | null, abroad = false, providerList = [house]) => {
  storage.set(StorageKey.token, 'test-token');
  sessionStore.setInfo(
    sessionInfo({
      role,
      providerRole,
      abroad,
      providerList: role === 'ONE_ROLE' ? providerList : [],
      currentProvider: role === 'ONE_ROLE' ? (providerList[0] ?? null) : null,
    }),
  );
};

/** Shows where the console went, as the address bar would. */
const Address = () => <div data-testid="address">{useLocation().pathname}</div>;

const open = (i18n: I18n) =>
  render(
    inTestShell(
      i18n,
      <>
        <DownloadGuide open onClose={() => undefined} />
        <Address />
      </>,
      '/somewhere',
    ),
  );

const shown = (): GuideAction[] =>
  screen
    .queryAllByTestId(/^guide-create/)
    .map((b) => (b.getAttribute('data-testid') ?? '').replace(/^guide-/, '') as GuideAction);

describe('DownloadGuide (issue 8, point 14)', () => {
  let i18n: I18n;
  beforeAll(async () => {
    i18n = await englishI18n();
  });
  afterEach(() => sessionStore.reset());

  it('sends "family account" to the residents list, where emergency contacts become family accounts', () => {
    expect(GUIDE_TARGETS.createFamily).toBe(RESIDENTS);
    expect(GUIDE_TARGETS.createResident).toBe(RESIDENTS);
  });

  it('for an administrator shows only the maintenance account, never a screen it may not open', async () => {
    signInAs('SUPER_ROLE', null);
    open(i18n);
    expect(shown()).toEqual(['createMaintenance']);
    expect(screen.queryByTestId('guide-family-hint')).toBeNull();
    fireEvent.click(screen.getByTestId('guide-createMaintenance'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(ACCOUNTS));
  });

  it('for a class 1 provider with a class 2 provider shows all three; family account opens the residents list', async () => {
    signInAs('ONE_ROLE', 'ONE_ROLE');
    open(i18n);
    expect(shown()).toEqual(['createResident', 'createFamily', 'createMaintenance']);
    expect(screen.getByTestId('guide-createFamily')).toHaveTextContent(i18n.t('guide.createFamily'));
    expect(screen.getByTestId('guide-family-hint')).toHaveTextContent(i18n.t('guide.familyHint'));
    fireEvent.click(screen.getByTestId('guide-createFamily'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(RESIDENTS));
  });

  it('for a class 1 provider without a class 2 provider hides the buttons to the residents list', () => {
    signInAs('ONE_ROLE', 'ONE_ROLE', false, []);
    open(i18n);
    expect(shown()).toEqual(['createMaintenance']);
  });

  it('for a class 2 provider shows all three buttons', async () => {
    signInAs('TWO_ROLE', 'TWO_ROLE');
    open(i18n);
    expect(shown()).toEqual(['createResident', 'createFamily', 'createMaintenance']);
    fireEvent.click(screen.getByTestId('guide-createResident'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(RESIDENTS));
  });

  it('says so plainly when the role may open none of the targets', () => {
    signInAs('GOVERNMENT', null);
    open(i18n);
    expect(shown()).toEqual([]);
    expect(screen.getByTestId('guide-no-actions')).toHaveTextContent(i18n.t('guide.noActions'));
  });

  it('abroad offers no family button, and still filters by role', () => {
    signInAs('TWO_ROLE', 'TWO_ROLE', true);
    open(i18n);
    expect(shown()).toEqual(['createResident', 'createMaintenance']);
  });

  it('every button shown, for every role, leads to a route the role may open', () => {
    const roles: [Role, ProviderRole | null][] = [
      ['SUPER_ROLE', null],
      ['SENIOR_ROLE', null],
      ['ONE_ROLE', 'ONE_ROLE'],
      ['TWO_ROLE', 'TWO_ROLE'],
      ['SUB_ROLE', 'TWO_ROLE'],
      ['BUSINESS_ROLE', null],
      ['GOVERNMENT', null],
      ['SOCIAL_WORKER', 'TWO_ROLE'],
    ];
    for (const abroad of [false, true]) {
      for (const [role, providerRole] of roles) {
        signInAs(role, providerRole, abroad);
        const access = accessFrom(sessionStore.get());
        if (!access) throw new Error('no access');
        for (const action of guideActions(access)) {
          const route = routeForPath(GUIDE_TARGETS[action]);
          expect(route && allowedRoutes(access).includes(route), `${role} ${action}`).toBe(true);
        }
      }
    }
  });
});
