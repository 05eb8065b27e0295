import {
  cleanup as cleanupScreen,
  configure,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import {
  bedSleepSetting,
  bunkList,
  bunkSummary,
  getAreaWithRoomList,
  getDeviceList,
  queryProviderList,
  residentList,
  saveBedSleepSetting,
  type EndpointResult,
  type SessionInfo,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { Route, Routes, useLocation, useParams } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';

// The API client captures fetch when it is created, so the stand-in must exist before any import.
const net = vi.hoisted(() => {
  const holder = { impl: async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('{}') };
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => holder.impl(input, init)) as typeof fetch;
  return holder;
});

import { sessionStore } from '../../shared/session/session-store.ts';
import BunkManagePage from './BunkManagePage.tsx';
import { device, providerRow } from '../devices/test-server.ts';
import { okFor } from '../../test/typed-answers.ts';
import { checkedRoutes } from './checked-routes.ts';
import { choose, fakeServer, fieldErrors, ok, refuse, type Handler } from './test-kit.ts';
import { sessionInfo } from '../../test/session-info.ts';

// antd in jsdom is slow on a busy machine; give async queries room.
configure({ asyncUtilTimeout: 5000 });

const counts = { bedCount: 2, occupiedCount: 1, deviceCount: 1, freeCount: 1 };
const empty = { bedCount: 0, occupiedCount: 0, deviceCount: 0, freeCount: 0 };
const TREE: EndpointResult<typeof getAreaWithRoomList> = [
  {
    id: 1,
    name: 'Building A',
    sort: 0,
    providerId: 2,
    providerName: 'Sunrise Home',
    ...counts,
    floors: [
      {
        id: 3,
        name: '1F',
        sort: 0,
        ...counts,
        rooms: [
          { id: 5, name: '101', ...counts, residentCount: 1 },
          // No beds, yet a checked-out resident's address; and an empty room.
          { id: 6, name: '102', ...empty, residentCount: 1 },
          { id: 8, name: '103', ...empty, residentCount: 0 },
        ],
      },
      { id: 4, name: '2F', sort: 1, ...empty, rooms: [] },
    ],
  },
  { id: 2, name: 'Building B', sort: 1, providerId: 2, providerName: 'Sunrise Home', ...empty, floors: [] },
];
type Bed = EndpointResult<typeof bunkList>['rows'][number];
const bed = (id: number, name: string, extra: Partial<Bed> = {}): Bed => ({
  id,
  providerId: 2,
  providerName: 'Sunrise Home',
  areaId: 1,
  areaName: 'Building A',
  floorId: 3,
  floorName: '1F',
  roomId: 5,
  roomName: '101',
  name,
  mattress: 'sponge',
  deviceId: null,
  deviceType: null,
  deviceOnline: null,
  deviceState: null,
  userId: null,
  userName: null,
  remark: null,
  createTime: '2026-01-01T10:00:00.000Z',
  ...extra,
});
/** A bed's device state as the server derives it for every screen (decision 0034). */
const state = (online: boolean, sensorState: 'initialised' | 'notInitialised'): NonNullable<Bed['deviceState']> => ({
  online,
  lastSeenTime: online ? '2026-01-01T10:00:00.000Z' : null,
  installed: true,
  installState: 'bed',
  paired: false,
  pairState: null,
  sensorInitialised: sensorState === 'initialised',
  sensorState,
  battery: null,
  signal: online ? -58 : null,
  signalUnit: online ? 'dBm' : null,
});
const BEDS = [
  bed(11, '1', {
    deviceId: 'SLEEP-0001',
    deviceType: 49,
    deviceOnline: true,
    deviceState: state(true, 'initialised'),
    userId: 7,
    userName: 'Zhang Min',
  }),
  bed(12, '2'),
  bed(13, '3', {
    deviceId: 'SLEEP-0003',
    deviceType: 49,
    deviceOnline: false,
    deviceState: state(false, 'notInitialised'),
  }),
];

/** The answers every test starts from; a test replaces the ones it needs. */
const baseRoutes = (): Record<string, Handler> => ({
  '/area/getAreaWithRoomList': () => okFor(getAreaWithRoomList, TREE),
  '/bunkManagement/bunkSummary': () =>
    okFor(bunkSummary, { total: 2, occupied: 1, free: 1, withDevice: 1, withoutDevice: 1, areas: [] }),
  // Enough beds for three pages, so paging and its reset can be seen.
  '/bunkManagement/bunkList': (body) =>
    okFor(bunkList, { rows: BEDS, total: 25, pageNum: Number(body.pageNum), pageSize: 10 }),
  '/device/getDeviceList': (body) =>
    okFor(getDeviceList, {
      rows:
        body.kind === 'sleep'
          ? [
              device({
                id: 2,
                deviceId: 'SLEEP-0002',
                deviceType: 49,
                model: 'BM8701-2',
                name: null,
                providerId: 2,
                providerName: 'Sunrise Home',
                bunkId: 20,
                bunkName: '1',
                roomName: '201',
                floorName: '2F',
                areaName: 'Building B',
                userId: null,
                userName: null,
              }),
            ]
          : [],
      total: 1,
      pageNum: 1,
      pageSize: 20,
    }),
  '/userManagement/userList': () => okFor(residentList, { rows: [], total: 0, pageNum: 1, pageSize: 20 }),
  '/provider/queryProviderList': () =>
    okFor(queryProviderList, {
      rows: [providerRow({ id: 2, name: 'Sunrise Home' }), providerRow({ id: 9, name: 'Oak Care' })],
      total: 2,
      pageNum: 1,
      pageSize: 1000,
    }),
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
afterEach(() => sessionStore.reset());

const signInAs = (role: SessionInfo['role']) => sessionStore.setInfo(sessionInfo({ role }));
const open = async () => {
  render(inTestShell(i18n, <BunkManagePage />));
  // The first render loads the screen's texts and antd's pieces: allow it time.
  await screen.findByTestId('node-room:5', undefined, { timeout: 10_000 });
  await screen.findByText('Zhang Min', undefined, { timeout: 10_000 });
};
const lastBeds = () => server.last('/bunkManagement/bunkList');
/** The visible modal (antd keeps closed ones in the DOM). */
const dialog = () => {
  const wraps = [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap')].filter(
    (w) => w.style.display !== 'none',
  );
  const last = wraps.at(-1);
  if (!last) throw new Error('no dialog open');
  return last;
};
const menuAction = async (nodeKey: string, label: string) => {
  fireEvent.click(screen.getByTestId(`menu-${nodeKey}`));
  fireEvent.click(await screen.findByText(label));
};
/** Opens a node's menu and finds one of its entries. */
const menuEntry = async (nodeKey: string, label: string) => {
  fireEvent.click(screen.getByTestId(`menu-${nodeKey}`));
  const popup = await screen.findByTestId(`menu-popup-${nodeKey}`);
  const entry = [...popup.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item')].find(
    (e) => e.textContent === label,
  );
  if (!entry) throw new Error(`no menu entry ${label} for ${nodeKey}`);
  return entry;
};
const bedRow = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
/** Hovers a disabled action and waits for the tooltip with its reason. */
const expectReason = async (action: HTMLElement, reason: string) => {
  const holder = action.closest<HTMLElement>('.refused-action') ?? action.querySelector<HTMLElement>('.refused-action');
  if (!holder) throw new Error('no refusal on this action');
  fireEvent.mouseEnter(holder);
  await waitFor(() =>
    expect(
      [...document.querySelectorAll<HTMLElement>('.ant-tooltip:not(.ant-tooltip-hidden)')].map((e) => e.textContent),
    ).toContain(reason),
  );
  fireEvent.mouseLeave(holder);
};

describe('BunkManagePage — addresses and beds', { timeout: 90_000 }, () => {
  it('shows the bed counts, the tree with its counts and the first page of all beds', async () => {
    signInAs('TWO_ROLE');
    await open();
    const summary = screen.getByTestId('bed-summary');
    expect(within(summary).getByText('Occupied')).toBeInTheDocument();
    expect(within(summary).getByText('Without device')).toBeInTheDocument();
    expect(screen.getByTestId('node-area:1').textContent).toContain('(1/2)');
    expect(lastBeds()).toEqual({ pageNum: 1, pageSize: 10 });
    expect(screen.getByText('All beds')).toBeInTheDocument();
    // Each bed's device as the device list shows it (decision 0034): online, installed, sensor.
    const tags = (deviceId: string) =>
      within(screen.getByTestId(`bed-device-${deviceId}`))
        .getAllByTestId(/^device-(online|install|pair|sensor)$/)
        .map((tag) => tag.textContent);
    expect(tags('SLEEP-0001')).toEqual(['Online', 'Installed at its bed', 'Sensor initialised']);
    expect(tags('SLEEP-0003')).toEqual(['Offline', 'Installed at its bed', 'Sensor not initialised']);
    // Platform-only parts are not offered to a provider login.
    expect(screen.queryByTestId('provider-filter')).not.toBeInTheDocument();
  });

  it('narrows the list to the chosen node and filters, back to page 1 on every change', async () => {
    signInAs('TWO_ROLE');
    await open();
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastBeds()).toEqual({ pageNum: 2, pageSize: 10 }));

    fireEvent.click(screen.getByTestId('node-floor:3'));
    await waitFor(() => expect(lastBeds()).toEqual({ pageNum: 1, pageSize: 10, areaId: 3 }));
    fireEvent.click(screen.getByTestId('node-room:5'));
    await waitFor(() => expect(lastBeds()).toEqual({ pageNum: 1, pageSize: 10, roomId: 5 }));

    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() => expect(lastBeds()).toMatchObject({ pageNum: 3, roomId: 5 }));
    await choose('bed-filter-free', 'Free beds');
    await waitFor(() => expect(lastBeds()).toEqual({ pageNum: 1, pageSize: 10, roomId: 5, free: true }));
    await choose('bed-filter-device', 'Without a device');
    await waitFor(() =>
      expect(lastBeds()).toEqual({ pageNum: 1, pageSize: 10, roomId: 5, free: true, hasDevice: false }),
    );
    const search = screen.getByPlaceholderText('Place, resident or device ID');
    fireEvent.change(search, { target: { value: ' Zhang ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(lastBeds()).toEqual({
        pageNum: 1,
        pageSize: 10,
        roomId: 5,
        free: true,
        hasDevice: false,
        keyWord: 'Zhang',
      }),
    );
  });

  it('shows the devices of a chosen room, placed in it, at its beds or worn by its residents (issue 27)', async () => {
    serve({
      '/device/getDeviceList': (body) =>
        okFor(getDeviceList, {
          rows:
            body.roomId === 5
              ? [
                  device({
                    id: 7,
                    deviceId: 'DOOR-0007',
                    deviceType: 20995,
                    model: 'MC-N01',
                    kind: 'door_magnet',
                    group: 'security',
                    name: 'Bathroom door',
                    placeKind: 'room',
                    bunkId: null,
                    bunkName: null,
                    userId: null,
                    userName: null,
                  }),
                  device({ id: 8, deviceId: 'SOS-0008', kind: 'emergency_button', placeKind: 'bed', bunkName: 'A' }),
                ]
              : [],
          total: body.roomId === 5 ? 2 : 0,
          pageNum: 1,
          pageSize: 100,
        }),
    });
    signInAs('TWO_ROLE');
    await open();
    expect(screen.queryByTestId('room-devices')).toBeNull();
    fireEvent.click(screen.getByTestId('node-room:5'));
    const card = await screen.findByTestId('room-devices');
    await within(card).findByText('DOOR-0007');
    expect(server.last('/device/getDeviceList')).toMatchObject({ roomId: 5 });
    const door = within(card).getByText('DOOR-0007').closest('tr') as HTMLElement;
    expect(within(door).getByText('Door/window sensor')).toBeInTheDocument();
    expect(within(door).getByText('In the room')).toBeInTheDocument();
    const sos = within(card).getByText('SOS-0008').closest('tr') as HTMLElement;
    expect(within(sos).getByText('A')).toBeInTheDocument();
  });

  it("says why a room's devices could not be read, and retries (not an empty list)", async () => {
    let refusing = true;
    serve({
      '/device/getDeviceList': () =>
        refusing
          ? refuse('The service is busy. Please try again.', 'busy', null, 500)
          : okFor(getDeviceList, {
              rows: [device({ id: 7, deviceId: 'DOOR-0007', kind: 'door_magnet', placeKind: 'room' })],
              total: 1,
              pageNum: 1,
              pageSize: 100,
            }),
    });
    signInAs('TWO_ROLE');
    await open();
    fireEvent.click(screen.getByTestId('node-room:5'));
    const card = await screen.findByTestId('room-devices');
    expect(await within(card).findByText('The service is busy. Please try again.')).toBeInTheDocument();
    expect(within(card).queryByText(/No device is placed in this room/)).toBeNull();
    refusing = false;
    fireEvent.click(within(card).getByTestId('list-retry'));
    expect(await within(card).findByText('DOOR-0007')).toBeInTheDocument();
  });

  it('adds rooms from a comma-separated list, checking names first and showing every name the server refuses', async () => {
    signInAs('TWO_ROLE');
    serve({
      '/room/insert': (_body, count) =>
        count === 1
          ? refuse('This floor already has rooms named: 101.', 'room.exists', {
              problems: [{ index: 2, name: '101', msgKey: 'room.exists' }],
            })
          : ok({ ids: [8, 9] }),
    });
    await open();
    await menuAction('floor:3', 'Add rooms');
    const names = within(dialog()).getByLabelText('Room names');
    fireEvent.change(names, { target: { value: '104, 105, 104' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(fieldErrors()).toContain('These names are listed more than once: 104'));
    expect(server.bodies('/room/insert')).toEqual([]);

    fireEvent.change(names, { target: { value: '104, 105, 101' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    const problems = await screen.findByTestId('name-problems');
    expect(problems.textContent).toContain('This floor already has rooms named: 101.');
    expect(problems.textContent).toContain('No. 3 “101”: a room with this name already exists on this floor');
    expect(server.last('/room/insert')).toEqual({ floorId: 3, name: '104, 105, 101' });
    // What was typed is still there to correct.
    expect(names).toHaveValue('104, 105, 101');

    fireEvent.change(names, { target: { value: '104, 105' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(server.bodies('/room/insert')).toHaveLength(2));
    expect(server.last('/room/insert')).toEqual({ floorId: 3, name: '104, 105' });
    await screen.findByText('Saved.');
  });

  it('adds beds to the selected room with their mattress', async () => {
    signInAs('TWO_ROLE');
    serve({ '/bunk/batchAddBunk': () => ok({ ids: [30, 31] }) });
    await open();
    expect(screen.getByTestId('add-beds')).toBeDisabled();
    fireEvent.click(screen.getByTestId('node-room:5'));
    await waitFor(() => expect(screen.getByTestId('add-beds')).toBeEnabled());
    fireEvent.click(screen.getByTestId('add-beds'));
    fireEvent.change(within(dialog()).getByLabelText('Bed names'), { target: { value: '3，4' } });
    fireEvent.click(within(dialog()).getByText('Latex'));
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/bunk/batchAddBunk')).toEqual({ roomId: 5, name: '3，4', mattress: 'latex' }),
    );
  });

  it('refuses an area name with a comma before sending, then creates the area', async () => {
    signInAs('TWO_ROLE');
    serve({ '/area/insertArea': () => ok({ id: 40 }) });
    await open();
    fireEvent.click(screen.getByTestId('add-area'));
    const name = within(dialog()).getByLabelText('Area/building name');
    fireEvent.change(name, { target: { value: 'A, B' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(fieldErrors()).toContain('Names cannot contain commas or control characters.'));
    expect(server.bodies('/area/insertArea')).toEqual([]);
    fireEvent.change(name, { target: { value: ' Building C ' } });
    fireEvent.change(within(dialog()).getByLabelText('Sort order'), { target: { value: '3' } });
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(server.last('/area/insertArea')).toEqual({ name: 'Building C', sort: 3 }));
  });

  it('disables deleting a place that still holds others, saying why', async () => {
    signInAs('TWO_ROLE');
    await open();
    const cases: [string, string, string | null][] = [
      ['area:1', 'Delete area', 'This area/building still has floors/units. Delete them first.'],
      ['area:2', 'Delete area', null],
      ['floor:3', 'Delete floor/unit', 'This floor/unit still has rooms. Delete them first.'],
      ['floor:4', 'Delete floor/unit', null],
      ['room:5', 'Delete room', 'This room still has beds. Delete them first.'],
      [
        'room:6',
        'Delete room',
        'Residents still have this room as their address. Log them off or check them in elsewhere first.',
      ],
      ['room:8', 'Delete room', null],
    ];
    for (const [node, label, reason] of cases) {
      const entry = await menuEntry(node, label);
      if (reason === null) {
        expect(entry, node).not.toHaveClass('ant-dropdown-menu-item-disabled');
        expect(entry.querySelector('.refused-action'), node).toBeNull();
      } else {
        expect(entry, node).toHaveClass('ant-dropdown-menu-item-disabled');
        await expectReason(entry, reason);
      }
    }
    // A disabled entry asks nothing, sends nothing and does not select its node either.
    fireEvent.click((await menuEntry('area:1', 'Delete area')).querySelector('.refused-action') as HTMLElement);
    expect(screen.queryByText(/Delete the area Building A\?/)).not.toBeInTheDocument();
    expect(server.bodies('/area/deleteAreaById')).toEqual([]);
    expect(screen.getByText('All beds')).toBeInTheDocument();
  });

  it('shows the server’s refusal when a floor gained rooms since the tree was loaded', async () => {
    signInAs('TWO_ROLE');
    serve({ '/area/deleteAreaById': () => refuse('This floor still has rooms. Delete them first.', 'floor.hasRooms') });
    await open();
    await menuAction('floor:4', 'Delete floor/unit');
    fireEvent.click(await screen.findByText('OK'));
    expect(await screen.findByText('This floor still has rooms. Delete them first.')).toBeInTheDocument();
    expect(server.last('/area/deleteAreaById')).toEqual({ id: '4' });
  });

  it('asks before moving a device linked to another bed, then sends the same save with confirm', async () => {
    signInAs('TWO_ROLE');
    serve({
      '/bunkManagement/updateBunk': (_body, count) =>
        count === 1
          ? refuse(
              'Please confirm: device SLEEP-0002 is linked to …',
              'bed.confirmMove',
              {
                confirmRequired: true,
                conflicts: [
                  {
                    kind: 'device',
                    bunkId: 20,
                    bunkPath: 'Building B / 2F / 201 / 1',
                    deviceId: 'SLEEP-0002',
                    userId: null,
                    userName: null,
                  },
                ],
              },
              300,
            )
          : ok(bed(12, '2', { deviceId: 'SLEEP-0002' })),
    });
    await open();
    const row = screen.getByText('2', { selector: 'strong' }).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByText('Edit'));
    await choose('bed-device', /SLEEP-0002/);
    fireEvent.click(within(dialog()).getByText('Save'));
    expect(
      await screen.findByText('Device SLEEP-0002 is linked to Building B / 2F / 201 / 1; it will move to this bed.'),
    ).toBeInTheDocument();
    const first = { id: 12, name: '2', mattress: 'sponge', remark: null, deviceId: 'SLEEP-0002' };
    expect(server.bodies('/bunkManagement/updateBunk')).toEqual([first]);
    fireEvent.click(screen.getByText('Move and save'));
    await waitFor(() =>
      expect(server.bodies('/bunkManagement/updateBunk')).toEqual([first, { ...first, confirm: true }]),
    );
  });

  it('checks a resident out after a confirmation', async () => {
    signInAs('TWO_ROLE');
    serve({ '/bunkManagement/checkOut': () => ok(null) });
    await open();
    const row = screen.getByText('Zhang Min').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByText('Check out'));
    expect(await screen.findByText(/Check Zhang Min out of bed 1\?/)).toBeInTheDocument();
    fireEvent.click(screen.getByText('OK'));
    await waitFor(() => expect(server.last('/bunkManagement/checkOut')).toEqual({ userId: 7 }));
    await screen.findByText('Checked out; the bed is free.');
  });

  it('disables deleting an occupied bed or one with a device, saying why', async () => {
    signInAs('TWO_ROLE');
    await open();
    const deleteOf = (name: string) => within(bedRow(name)).getByText('Delete').closest('button') as HTMLElement;
    expect(deleteOf('1')).toBeDisabled();
    await expectReason(deleteOf('1'), 'Zhang Min is in this bed. Check them out first.');
    expect(deleteOf('3')).toBeDisabled();
    await expectReason(deleteOf('3'), 'Device SLEEP-0003 is linked to this bed. Unlink it first.');
    expect(deleteOf('2')).toBeEnabled();
    expect(deleteOf('2').closest('.refused-action')).toBeNull();
  });

  it('shows the server’s refusal when a free bed got a device since the list was loaded', async () => {
    signInAs('TWO_ROLE');
    serve({
      '/bunkManagement/deleteBunk': () =>
        refuse('Device SLEEP-0009 is linked to this bed. Unlink it first.', 'bed.hasDevice'),
    });
    await open();
    fireEvent.click(within(bedRow('2')).getByText('Delete'));
    await screen.findByText(/Delete bed 2\?/);
    fireEvent.click(screen.getAllByText('OK').at(-1) as HTMLElement);
    expect(await screen.findByText('Device SLEEP-0009 is linked to this bed. Unlink it first.')).toBeInTheDocument();
    expect(server.last('/bunkManagement/deleteBunk')).toEqual({ id: '12' });
  });

  it('offers only the per-bed settings whose screens are built, no badge or fence entry (issue 29, point 11)', async () => {
    signInAs('TWO_ROLE');
    await open();
    expect(screen.getAllByTestId('setting-alarm').length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('setting-sleep').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('setting-badge')).not.toBeInTheDocument();
    expect(screen.queryByTestId('setting-fence')).not.toBeInTheDocument();
  });

  it("links an occupied bed to its resident's alarm settings, and explains why a free bed has none", async () => {
    signInAs('TWO_ROLE');
    const AlarmSettingProbe = () => {
      const { userId } = useParams();
      const state = useLocation().state as { userName?: string } | null;
      return <div data-testid="alarm-setting-probe">{`${userId ?? ''} ${state?.userName ?? ''}`}</div>;
    };
    render(
      inTestShell(
        i18n,
        <Routes>
          <Route path="/" element={<BunkManagePage />} />
          <Route path="/BunkManage/alarmSetting/:userId" element={<AlarmSettingProbe />} />
        </Routes>,
      ),
    );
    await screen.findByText('Zhang Min', undefined, { timeout: 10_000 });
    const free = within(bedRow('2')).getByTestId('setting-alarm');
    expect(free).toBeDisabled();
    await expectReason(free, 'No resident in this bed: alarm settings belong to the resident.');
    const link = within(bedRow('1')).getByTestId('setting-alarm');
    expect(link).toHaveAttribute('href', '/BunkManage/alarmSetting/7');
    expect(link).toHaveAccessibleName('Alarm settings');
    fireEvent.click(link);
    expect(await screen.findByTestId('alarm-setting-probe')).toHaveTextContent('7 Zhang Min');
  });

  it('exports the list as filtered, without paging', async () => {
    signInAs('TWO_ROLE');
    URL.createObjectURL = vi.fn(() => 'blob:beds');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    serve({
      '/bunk/exportData': () =>
        new Response(new Uint8Array([80, 75]), {
          status: 200,
          headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        }),
    });
    await open();
    fireEvent.click(screen.getByTestId('node-floor:3'));
    await choose('bed-filter-free', 'Occupied beds');
    await waitFor(() => expect(lastBeds()).toMatchObject({ free: false }));
    fireEvent.click(screen.getByTestId('export'));
    await waitFor(() => expect(server.last('/bunk/exportData')).toEqual({ areaId: 3, free: false }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
  });

  it('gives platform roles a provider filter and column, sent to every list', async () => {
    signInAs('SENIOR_ROLE');
    await open();
    expect(screen.getAllByText('Provider').length).toBeGreaterThan(0);
    // Platform import goes to one provider: it waits for the filter.
    expect(screen.getByTestId('bed-import')).toBeDisabled();
    await choose('provider-filter', 'Oak Care');
    await waitFor(() => expect(lastBeds()).toEqual({ pageNum: 1, pageSize: 10, providerId: 9 }));
    expect(server.last('/area/getAreaWithRoomList')).toEqual({ providerId: 9 });
    expect(server.last('/bunkManagement/bunkSummary')).toEqual({ providerId: '9' });
    expect(screen.getByTestId('bed-import')).toBeEnabled();
  });
});

describe('BunkManagePage — residents’ sleep settings', { timeout: 90_000 }, () => {
  /** Two occupied beds, a free one and one with only a device; a second page keeps the list paged. */
  const withLiNa = (): Record<string, Handler> => ({
    '/bunkManagement/bunkList': (body) =>
      okFor(bunkList, {
        rows: [...BEDS, bed(14, '4', { userId: 9, userName: 'Li Na', mattress: 'latex' })],
        total: 25,
        pageNum: Number(body.pageNum),
        pageSize: 10,
      }),
  });
  const SAVED = {
    userId: 7,
    leaveBedMode: 'sleepTime',
    sleepTime: '22:00',
    wakeTime: '06:30',
    sensitivity: 'high',
    mattress: 'spring',
    source: 'resident',
    updateTime: '2026-01-02T08:00:00.000Z',
  } as const;
  const sleepOf = (name: string) => within(bedRow(name)).getByTestId('setting-sleep');
  const tick = (name: string) => fireEvent.click(within(bedRow(name)).getByRole('checkbox'));

  it('reads a resident’s saved settings from the bed row and saves the change; the list refreshes', async () => {
    signInAs('TWO_ROLE');
    serve({
      ...withLiNa(),
      '/bunk/sleepSetting': () => okFor(bedSleepSetting, SAVED),
      '/bunk/saveSleepSetting': () => okFor(saveBedSleepSetting, { count: 1 }),
    });
    await open();
    expect(sleepOf('1')).toHaveAccessibleName('Sleep settings');
    fireEvent.click(sleepOf('1'));
    expect(await screen.findByText('Sleep settings — Zhang Min')).toBeInTheDocument();
    await within(dialog()).findByText(/^Settings saved on 2026-01-02/);
    expect(server.last('/bunk/sleepSetting')).toEqual({ userId: '7' });
    expect(within(dialog()).getByText('Building A / 1F / 101 / 1')).toBeInTheDocument();
    expect(within(dialog()).getByText("The resident's bed gets this mattress too.")).toBeInTheDocument();
    const listed = server.bodies('/bunkManagement/bunkList').length;

    fireEvent.click(within(dialog()).getByText('Off'));
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/bunk/saveSleepSetting')).toEqual({
        userIds: [7],
        leaveBedMode: 'off',
        sleepTime: '22:00',
        wakeTime: '06:30',
        sensitivity: 'high',
        mattress: 'spring',
      }),
    );
    await screen.findByText('Sleep settings saved. Residents: 1.');
    // The bed's mattress may have changed with them.
    await waitFor(() => expect(server.bodies('/bunkManagement/bunkList').length).toBeGreaterThan(listed));
  });

  it('shows the defaults with the bed’s own mattress for a resident nobody saved settings for', async () => {
    signInAs('TWO_ROLE');
    serve({
      ...withLiNa(),
      '/bunk/sleepSetting': () =>
        okFor(bedSleepSetting, {
          userId: 9,
          leaveBedMode: 'allDay',
          sleepTime: '21:00',
          wakeTime: '07:00',
          sensitivity: 'medium',
          mattress: 'sponge',
          source: 'default',
          updateTime: null,
        }),
      '/bunk/saveSleepSetting': () => okFor(saveBedSleepSetting, { count: 1 }),
    });
    await open();
    fireEvent.click(sleepOf('4'));
    await within(dialog()).findByText(
      "Not saved yet for this resident; the usual defaults are shown, with the bed's current mattress.",
    );
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/bunk/saveSleepSetting')).toEqual({
        userIds: [9],
        leaveBedMode: 'allDay',
        sleepTime: '21:00',
        wakeTime: '07:00',
        sensitivity: 'medium',
        mattress: 'latex',
      }),
    );
  });

  it('refuses a wake time equal to the sleep time before sending', async () => {
    signInAs('TWO_ROLE');
    serve({ '/bunk/sleepSetting': () => okFor(bedSleepSetting, { ...SAVED, wakeTime: '22:00' }) });
    await open();
    fireEvent.click(sleepOf('1'));
    await within(dialog()).findByText(/^Settings saved on/);
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() => expect(fieldErrors()).toContain('The wake time must differ from the sleep time.'));
    expect(server.bodies('/bunk/saveSleepSetting')).toEqual([]);
  });

  it('saves the same settings for the residents of the ticked beds, starting from the defaults', async () => {
    signInAs('TWO_ROLE');
    serve({ ...withLiNa(), '/bunk/saveSleepSetting': () => okFor(saveBedSleepSetting, { count: 2 }) });
    await open();
    const batch = screen.getByTestId('batch-sleep');
    expect(batch).toBeDisabled();
    await expectReason(batch, 'Tick beds with residents first.');
    // A free bed, or one with only a device, has nobody to save settings for.
    expect(within(bedRow('2')).getByRole('checkbox')).toBeDisabled();
    expect(within(bedRow('3')).getByRole('checkbox')).toBeDisabled();
    tick('1');
    tick('4');
    await waitFor(() => expect(screen.getByTestId('batch-sleep')).toHaveTextContent('Sleep settings (2)'));
    fireEvent.click(screen.getByTestId('batch-sleep'));
    expect(await screen.findByText('Sleep settings — 2 residents')).toBeInTheDocument();
    expect(
      within(dialog()).getByText(
        "Residents chosen: 2. The form starts from the usual defaults; saving replaces each resident's current settings.",
      ),
    ).toBeInTheDocument();
    expect(within(screen.getByTestId('sleep-chosen')).getByText('Li Na · 101 / 4')).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByText('High'));
    fireEvent.click(within(dialog()).getByText('Save'));
    await waitFor(() =>
      expect(server.last('/bunk/saveSleepSetting')).toEqual({
        userIds: [7, 9],
        leaveBedMode: 'allDay',
        sleepTime: '21:00',
        wakeTime: '07:00',
        sensitivity: 'high',
        mattress: 'sponge',
      }),
    );
    // A batch reads nobody's settings first.
    expect(server.bodies('/bunk/sleepSetting')).toEqual([]);
    await screen.findByText('Sleep settings saved. Residents: 2.');
    // Saved: the choice starts afresh.
    await waitFor(() => expect(screen.getByTestId('batch-sleep')).toBeDisabled());
  });

  it('keeps the dialog open with the server’s refusal', async () => {
    signInAs('ONE_ROLE');
    const refusal = 'The chosen residents belong to several providers. Save each provider’s residents separately.';
    serve({
      ...withLiNa(),
      '/bunk/saveSleepSetting': () => refuse(refusal, 'sleepSetting.oneProvider', null, 300),
    });
    await open();
    tick('1');
    tick('4');
    fireEvent.click(await screen.findByText('Sleep settings (2)'));
    fireEvent.click(within(await screen.findByTestId('bed-sleep-dialog')).getByText('High'));
    fireEvent.click(within(dialog()).getByText('Save'));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByText('Sleep settings — 2 residents')).toBeVisible();
    expect(server.bodies('/bunk/saveSleepSetting')).toHaveLength(1);
  });

  it('explains why a free bed has no sleep settings, and why platform roles cannot change them', async () => {
    signInAs('TWO_ROLE');
    await open();
    expect(sleepOf('2')).toBeDisabled();
    await expectReason(sleepOf('2'), 'No resident in this bed: sleep settings belong to the resident.');
    cleanupScreen();
    signInAs('SENIOR_ROLE');
    await open();
    expect(sleepOf('1')).toBeDisabled();
    await expectReason(sleepOf('1'), "Sleep settings are changed with the provider's own accounts.");
    expect(screen.queryByTestId('batch-sleep')).not.toBeInTheDocument();
    expect(within(bedRow('1')).queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
