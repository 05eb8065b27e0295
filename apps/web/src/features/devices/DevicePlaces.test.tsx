import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { CATALOGUE, device, dialogButton, formErrors, installFakeApi, lastJson, page } from './test-server.ts';

const api = installFakeApi();

import { DeviceList } from './DeviceList.tsx';

vi.setConfig({ testTimeout: 120_000 });

const LIST = '/device/getDeviceList';
const unplaced = {
  placeKind: null,
  bunkId: null,
  bunkName: null,
  roomId: null,
  roomName: null,
  floorId: null,
  floorName: null,
  areaId: null,
  areaName: null,
  userId: null,
  userName: null,
} as const;
const sos = device({
  id: 1,
  deviceId: 'SOS-0001',
  deviceType: 20993,
  model: 'SOS-N03',
  kind: 'emergency_button',
  group: 'security',
  name: 'Bathroom button',
  ...unplaced,
  placeKind: 'room',
  roomId: 11,
  roomName: '102',
  floorId: 21,
  floorName: 'Floor 1',
  areaId: 20,
  areaName: 'Building A',
});
const motion = device({
  id: 2,
  deviceId: 'PIR-0002',
  deviceType: 20999,
  model: 'HW-N05',
  kind: 'infrared_motion',
  group: 'security',
  name: null,
  ...unplaced,
});
const TREE = {
  mattresses: [],
  deviceTypes: [52],
  areas: [
    {
      id: 20,
      name: 'Building A',
      providerId: 7,
      floors: [
        {
          id: 21,
          name: 'Floor 1',
          rooms: [
            {
              id: 11,
              name: '102',
              beds: [{ id: 3, name: 'A', mattress: 'sponge', userId: null, userName: null, deviceId: null }],
            },
            { id: 12, name: '103', beds: [] },
          ],
        },
      ],
    },
  ],
};

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  api.requests.length = 0;
  api.routes.clear();
  api.routes.set(LIST, () => ({ data: page([sos, motion]) }));
  api.routes.set('/device/deviceTypes', () => ({ data: CATALOGUE }));
  api.routes.set('/userBunk/getConfiguration', () => ({ data: TREE }));
});
afterEach(() => sessionStore.reset());

const show = async () => {
  render(inTestShell(i18n, <DeviceList group="security" />));
  await screen.findByText('SOS-0001');
};
const rowOf = (deviceId: string) => screen.getByText(deviceId).closest('tr') as HTMLElement;
/** Opens a cascader and clicks through the labels given. */
const pick = async (cascader: HTMLElement, labels: string[]) => {
  fireEvent.mouseDown(cascader.querySelector('input') ?? cascader);
  for (const label of labels) {
    const item = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-cascader-menu-item')]
        .reverse()
        .find((i) => i.textContent === label);
      if (!found) throw new Error(`no ${label}`);
      return found;
    });
    fireEvent.click(item);
  }
};

describe('device places', () => {
  it('shows each device’s place, or that it is not set', async () => {
    await show();
    expect(within(rowOf('SOS-0001')).getByText('Room 102')).toBeInTheDocument();
    expect(within(rowOf('SOS-0001')).getByText('Building A / Floor 1')).toBeInTheDocument();
    expect(within(rowOf('PIR-0002')).getByText('Place not set')).toBeInTheDocument();
  });

  it('places a device at a bed (the room implied)', async () => {
    await show();
    fireEvent.click(within(rowOf('PIR-0002')).getByText('Edit'));
    const form = await screen.findByTestId('device-form');
    await pick(within(form).getByTestId('device-place'), ['Building A', 'Floor 1', '102', 'A']);
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, '/device/updateDevice')).toMatchObject({
        deviceId: 'PIR-0002',
        bunkId: 3,
        roomId: null,
        areaId: null,
        userId: null,
        caregiverId: null,
      }),
    );
  });

  it('keeps a device’s place on an edit, and puts a place refusal on the picker', async () => {
    api.routes.set('/device/updateDevice', () => ({
      status: 400,
      msg: 'The room, bed, area or person chosen as the device’s place does not exist.',
      msgKey: 'device.placeNotFound',
    }));
    await show();
    fireEvent.click(within(rowOf('SOS-0001')).getByText('Edit'));
    const form = await screen.findByTestId('device-form');
    await waitFor(() => expect(within(form).getByTestId('device-place').textContent).toContain('102'));
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(formErrors()).toEqual(['The room, bed, area or person chosen as the device’s place does not exist.']),
    );
    expect(lastJson(api, '/device/updateDevice')).toMatchObject({ roomId: 11, bunkId: null, areaId: null });
  });

  it('filters by room, by floor and by a place not set', async () => {
    await show();
    const filter = screen.getByTestId('device-filter-place');
    await pick(filter, ['Building A', 'Floor 1', '102']);
    await waitFor(() => expect(lastJson(api, LIST)).toMatchObject({ roomId: 11 }));
    expect(lastJson(api, LIST)).not.toHaveProperty('areaId');
    await pick(filter, ['Place not set']);
    await waitFor(() => expect(lastJson(api, LIST)).toMatchObject({ placed: false }));
    expect(lastJson(api, LIST)).not.toHaveProperty('roomId');
  });
});
