import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  COMMUNITY_ALARM_TYPES,
  getUserSleepConfig,
  insertCommunity,
  queryCommunityList,
  queryNursingList,
  queryProviderList,
  residentList,
  saveUserSleepConfigs,
  type EndpointResult,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../../test/render.tsx';

// The API client captures fetch when it is created, so the stand-in must exist before any import.
const net = vi.hoisted(() => {
  const holder = { impl: async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('{}') };
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => holder.impl(input, init)) as typeof fetch;
  return holder;
});

import { caregiverRow } from '../../caregivers/test-support.ts';
import { providerRow } from '../../devices/test-server.ts';
import { residentRow } from '../../residents/test-fixtures.ts';
import { okFor } from '../../../test/typed-answers.ts';
import { checkedRoutes } from '../checked-routes.ts';
import { choose, fakeServer, fieldErrors, ok, refuse, type Handler } from '../test-kit.ts';
import { CommunityTab } from './CommunityTab.tsx';

// antd in jsdom is slow on a busy machine; give async queries room.
configure({ asyncUtilTimeout: 5000 });

type Community = EndpointResult<typeof queryCommunityList>['rows'][number];
const COMMUNITY: Community = {
  id: 4,
  providerId: 2,
  providerName: 'Sunrise Home',
  name: 'Maple Street',
  address: '12 Maple Street',
  contact: 'Li Wei',
  phone: '13800138000',
  remark: null,
  residentCount: 2,
  alarmConfig: { level1: ['SOS'], level2: [], receiverIds: [21], notify: ['page'] },
  createTime: '2026-01-01T10:00:00.000Z',
};
/** A community nobody belongs to yet: the only kind the server deletes. */
const EMPTY: Community = {
  ...COMMUNITY,
  id: 6,
  providerId: 9,
  providerName: 'Oak Care',
  name: 'Birch Court',
  address: '3 Birch Court',
  contact: 'Sun Yu',
  phone: '13500135000',
  residentCount: 0,
  alarmConfig: null,
};
const resident = (id: number, name: string, communityId: number | null) =>
  residentRow({
    id,
    providerId: 2,
    providerName: 'Sunrise Home',
    name,
    state: 'registered',
    communityId,
    communityName: communityId === COMMUNITY.id ? COMMUNITY.name : null,
  });
const caregiver = (id: number, providerId: number, name: string, phone: string) =>
  caregiverRow({
    id,
    providerId,
    providerName: providerId === 2 ? 'Sunrise Home' : 'Oak Care',
    name,
    phone,
    userName: null,
    residents: [],
  });

const baseRoutes = (): Record<string, Handler> => ({
  '/community/queryCommunityList': (body) =>
    okFor(queryCommunityList, { rows: [COMMUNITY, EMPTY], total: 25, pageNum: Number(body.pageNum), pageSize: 10 }),
  '/userManagement/userList': () =>
    okFor(residentList, {
      rows: [resident(7, 'Zhang Min', 4), resident(8, 'Wang Gang', 4), resident(9, 'Chen Hua', null)],
      total: 3,
      pageNum: 1,
      pageSize: 1000,
    }),
  '/community/getUserSleepConfig': () => okFor(getUserSleepConfig, null),
  '/community/saveUserSleepConfigs': () => okFor(saveUserSleepConfigs, { count: 2 }),
  '/nursing/queryNursingList': () =>
    okFor(queryNursingList, {
      rows: [
        caregiver(21, 2, 'Liu Fang', '13900139000'),
        caregiver(22, 2, 'Zhao Lei', '13700137000'),
        caregiver(23, 9, 'Elsewhere', '13600136000'),
      ],
      total: 3,
      pageNum: 1,
      pageSize: 1000,
    }),
  '/community/saveAlarmConfig': () => ok(null),
  '/community/insertCommunity': () => okFor(insertCommunity, { id: 5 }),
  '/community/updateCommunity': () => ok(null),
});

let i18n: I18n;
let server: ReturnType<typeof fakeServer>;
const serve = (routes: Record<string, Handler> = {}) => {
  server = fakeServer(checkedRoutes({ ...baseRoutes(), ...routes }));
  net.impl = server.fetch;
};
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => serve());

const open = async (platform = false) => {
  render(inTestShell(i18n, <CommunityTab platform={platform} />));
  await screen.findByText('Maple Street', undefined, { timeout: 10_000 });
};
const dialog = () => {
  const wraps = [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap')].filter(
    (w) => w.style.display !== 'none',
  );
  const last = wraps.at(-1);
  if (!last) throw new Error('no dialog open');
  return last;
};
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const rowAction = (label: string, name = 'Maple Street') => fireEvent.click(within(rowOf(name)).getByText(label));

describe('CommunityTab', { timeout: 90_000 }, () => {
  it('lists communities, searches from page 1 and pages', async () => {
    await open();
    expect(server.last('/community/queryCommunityList')).toEqual({ pageNum: 1, pageSize: 10 });
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(server.last('/community/queryCommunityList')).toEqual({ pageNum: 2, pageSize: 10 }));
    const search = screen.getByPlaceholderText('Name, address, contact or phone');
    fireEvent.change(search, { target: { value: ' maple ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(server.last('/community/queryCommunityList')).toEqual({ pageNum: 1, pageSize: 10, keyWord: 'maple' }),
    );
    expect(screen.queryByText('Provider')).not.toBeInTheDocument();
  });

  it('checks the phone before creating a community', async () => {
    await open();
    fireEvent.click(screen.getByTestId('community-create'));
    fireEvent.change(within(dialog()).getByLabelText('Community name'), { target: { value: ' Oak Lane ' } });
    const phone = within(dialog()).getByLabelText('Phone');
    fireEvent.change(phone, { target: { value: '12345' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(fieldErrors()).toContain(
        'Not a valid mobile number: 11 digits for mainland China, otherwise + and the country code.',
      ),
    );
    expect(server.bodies('/community/insertCommunity')).toEqual([]);
    fireEvent.change(phone, { target: { value: '+44 20 7946 0958' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/community/insertCommunity')).toEqual({ name: 'Oak Lane', phone: '+44 20 7946 0958' }),
    );
  });

  it('edits a community in place: the dialog starts from its values and clears an emptied field', async () => {
    await open();
    rowAction('Edit');
    const name = within(dialog()).getByLabelText('Community name');
    expect(name).toHaveValue('Maple Street');
    expect(within(dialog()).getByLabelText('Contact person')).toHaveValue('Li Wei');
    fireEvent.change(name, { target: { value: 'Maple Court' } });
    fireEvent.change(within(dialog()).getByLabelText('Contact person'), { target: { value: '' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/community/updateCommunity')).toEqual({
        id: 4,
        name: 'Maple Court',
        address: '12 Maple Street',
        contact: null,
        phone: '13800138000',
        remark: null,
      }),
    );
    expect(server.bodies('/community/insertCommunity')).toEqual([]);
  });

  it('asks the platform for the provider of a new community', async () => {
    serve({
      '/provider/queryProviderList': () =>
        okFor(queryProviderList, {
          rows: [providerRow({ id: 9, name: 'Oak Care' })],
          total: 1,
          pageNum: 1,
          pageSize: 1000,
        }),
    });
    await open(true);
    expect(screen.getByText('Sunrise Home')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('community-create'));
    fireEvent.change(within(dialog()).getByLabelText('Community name'), { target: { value: 'Oak Lane' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(fieldErrors()).toContain('Required'));
    expect(server.bodies('/community/insertCommunity')).toEqual([]);
  });

  it('disables deleting a community with residents, saying why', async () => {
    await open();
    const withResidents = within(rowOf('Maple Street')).getByText('Delete').closest('button') as HTMLElement;
    expect(withResidents).toBeDisabled();
    fireEvent.mouseEnter(withResidents.closest('.refused-action') as HTMLElement);
    expect(
      await screen.findByText('This community still has residents. Move them out before deleting it.'),
    ).toBeInTheDocument();
    const empty = within(rowOf('Birch Court')).getByText('Delete').closest('button') as HTMLElement;
    expect(empty).toBeEnabled();
    expect(empty.closest('.refused-action')).toBeNull();
  });

  it('shows the server’s refusal when residents joined since the list was loaded', async () => {
    serve({
      '/community/deleteCommunity': () =>
        refuse('This community still has residents. Move them out before deleting it.', 'community.hasResidents'),
    });
    await open();
    rowAction('Delete', 'Birch Court');
    fireEvent.click(await screen.findByText('OK'));
    expect(
      await screen.findByText('This community still has residents. Move them out before deleting it.'),
    ).toBeInTheDocument();
    expect(server.last('/community/deleteCommunity')).toEqual({ id: 6 });
  });

  it('saves the same sleep settings for the chosen members, and reads one member’s back', async () => {
    serve({
      '/community/getUserSleepConfig': () =>
        okFor(getUserSleepConfig, {
          leaveBedMode: 'allDay',
          sleepTime: '22:00',
          wakeTime: '06:30',
          sensitivity: 'high',
          mattress: 'latex',
          updateTime: '2026-01-02T08:00:00.000Z',
        }),
    });
    await open();
    rowAction('Sleep settings');
    const members = await screen.findByTestId('sleep-members');
    await within(members).findByText('Wang Gang');
    // Only members of the community are offered.
    expect(within(members).queryByText('Chen Hua')).not.toBeInTheDocument();

    fireEvent.click(within(dialog()).getByText('Save'));
    expect(await screen.findByTestId('sleep-none-chosen')).toHaveTextContent('Choose at least one resident.');
    expect(server.bodies('/community/saveUserSleepConfigs')).toEqual([]);

    const boxes = members.querySelectorAll<HTMLInputElement>('.ant-table-tbody input[type=checkbox]');
    fireEvent.click(boxes[0] as HTMLInputElement);
    await waitFor(() =>
      expect(server.last('/community/getUserSleepConfig')).toEqual({ communityId: '4', residentId: '7' }),
    );
    await screen.findByText(/Settings saved on/);
    fireEvent.click(boxes[1] as HTMLInputElement);
    await screen.findByText('Residents chosen: 2. The same settings will be saved for each of them.');
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/community/saveUserSleepConfigs')).toEqual({
        communityId: 4,
        residentIds: [7, 8],
        leaveBedMode: 'allDay',
        sleepTime: '22:00',
        wakeTime: '06:30',
        sensitivity: 'high',
        mattress: 'latex',
      }),
    );
  });

  it('refuses a wake time equal to the sleep time', async () => {
    serve({
      '/community/getUserSleepConfig': () =>
        okFor(getUserSleepConfig, {
          leaveBedMode: 'off',
          sleepTime: '22:00',
          wakeTime: '22:00',
          sensitivity: 'low',
          mattress: 'sponge',
          updateTime: '2026-01-02T08:00:00.000Z',
        }),
    });
    await open();
    rowAction('Sleep settings');
    const members = await screen.findByTestId('sleep-members');
    await within(members).findByText('Wang Gang');
    fireEvent.click(members.querySelector('.ant-table-tbody input[type=checkbox]') as HTMLInputElement);
    await screen.findByText(/Settings saved on/);
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(fieldErrors()).toContain('The wake time must differ from the sleep time.'));
    expect(server.bodies('/community/saveUserSleepConfigs')).toEqual([]);
  });

  it('saves alarm levels (one per type), receivers of the provider and notification modes', async () => {
    await open();
    rowAction('Alarm settings');
    const fall = await screen.findByTestId('level-FALL');
    fireEvent.click(within(fall).getByText('Level 1'));
    // Only enabled caregivers of the community's provider are offered.
    fireEvent.mouseDown(screen.getByTestId('alarm-receivers'));
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual([
        'Liu Fang (13900139000)',
        'Zhao Lei (13700137000)',
      ]),
    );
    await choose('alarm-receivers', 'Zhao Lei (13700137000)');
    fireEvent.click(within(dialog()).getByText('SMS'));
    // No way to notify is refused before sending.
    fireEvent.click(within(dialog()).getByText('SMS'));
    fireEvent.click(within(dialog()).getByText('Sound in the console'));
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(fieldErrors()).toContain('Choose at least one way to notify.'));
    expect(server.bodies('/community/saveAlarmConfig')).toEqual([]);

    fireEvent.click(within(dialog()).getByText('SMS'));
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(server.bodies('/community/saveAlarmConfig')).toHaveLength(1));
    const saved = server.last('/community/saveAlarmConfig') as Record<string, string[] | number[] | number>;
    expect(saved.communityId).toBe(4);
    expect(saved.level1).toEqual(['FALL', 'SOS']);
    expect(saved.level2).toHaveLength(COMMUNITY_ALARM_TYPES.length - 2);
    expect(saved.level2).not.toContain('FALL');
    expect(saved.receiverIds).toEqual([21, 22]);
    expect(saved.notify).toEqual(['sms']);
  });
});
