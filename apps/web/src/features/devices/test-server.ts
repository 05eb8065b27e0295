import { fireEvent, screen, waitFor } from '@testing-library/react';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import type { Provider, SessionInfo } from '@vigil/contract/browser';
import { sessionStore } from '../../shared/session/session-store.ts';
import type { DeviceRow, DeviceTypeOption } from './device-model.ts';
import { sessionInfo } from '../../test/session-info.ts';

/** What the device screens' tests share: a fake API, request readers and fixtures. */
export interface Answer {
  status?: number;
  msg?: string;
  msgKey?: string;
  /** The request field the refusal is about, as the server names it (MESSAGE_FIELDS). */
  field?: string;
  data?: unknown;
}
export interface SeenRequest {
  path: string;
  method: string;
  url: URL;
  body: BodyInit | null | undefined;
}
export interface FakeApi {
  routes: Map<string, (request: SeenRequest) => Answer>;
  requests: SeenRequest[];
}

/** Replaces fetch with a fake answering from `routes` (200 with null data for any other path). */
export const installFakeApi = (): FakeApi => {
  const fake: FakeApi = { routes: new Map(), requests: [] };
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const request = { path: url.pathname, method: init?.method ?? 'GET', url, body: init?.body };
    fake.requests.push(request);
    const route = fake.routes.get(url.pathname);
    const answer = route?.(request) ?? {};
    const envelope = {
      status: answer.status ?? 200,
      msg: answer.msg ?? 'ok',
      msgKey: answer.msgKey,
      field: answer.field,
      data: answer.data ?? null,
    };
    // A fake answers only what the real server may: typed against the contract, not a copy of it.
    if (route) checkFakeAnswer(url.pathname, envelope);
    return new Response(JSON.stringify(envelope), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return fake;
};

/** The requests made to one path, oldest first. */
export const requestsTo = (api: FakeApi, path: string) => api.requests.filter((r) => r.path === path);
export const lastTo = (api: FakeApi, path: string): SeenRequest | undefined => requestsTo(api, path).at(-1);
/** The JSON body of the latest request to a path. */
export const lastJson = (api: FakeApi, path: string): Record<string, unknown> =>
  JSON.parse(String(lastTo(api, path)?.body ?? 'null')) as Record<string, unknown>;
/** The form-encoded body of the latest request to a path, as an object. */
export const lastForm = (api: FakeApi, path: string): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(String(lastTo(api, path)?.body ?? '')));
/** The query of the latest request to a path, as an object. */
export const lastQuery = (api: FakeApi, path: string): Record<string, string> =>
  Object.fromEntries(lastTo(api, path)?.url.searchParams ?? []);

export const signInAs = (role: SessionInfo['role']) => sessionStore.setInfo(sessionInfo({ role }));

export const CATALOGUE: DeviceTypeOption[] = [
  { code: 49, model: 'BM8701-2', kind: 'sleep_monitor', group: 'sleep', market: null },
  { code: 52, model: 'M8701W', kind: 'sleep_monitor', group: 'sleep', market: null },
  { code: 20993, model: 'SOS-N03', kind: 'emergency_button', group: 'security', market: null },
  { code: 20999, model: 'HW-N05', kind: 'infrared_motion', group: 'security', market: null },
  { code: 21007, model: 'ED719W', kind: 'fall_radar', group: 'fall', market: 'abroad' },
  { code: 21008, model: 'LHD8100', kind: 'gateway_host', group: 'gateway', market: null },
];

export const device = (overrides: Partial<DeviceRow> = {}): DeviceRow => ({
  id: 1,
  deviceId: 'SLP-1001',
  cipherId: 'C101',
  deviceType: 52,
  model: 'M8701W',
  kind: 'sleep_monitor',
  group: 'sleep',
  name: 'Bed pad 1',
  commMode: 'wifi',
  online: true,
  lastSeenTime: '2026-01-01T10:00:00.000Z',
  firmwareVersion: '2.4.1',
  hardwareVersion: 'B2',
  signal: -61,
  signalUnit: 'dBm',
  battery: null,
  installed: true,
  installState: 'bed',
  paired: false,
  pairState: null,
  sensorInitialised: false,
  sensorState: 'notInitialised',
  sensitivity: null,
  reportInterval: 30,
  algMode: 1,
  uploadData: false,
  imei: null,
  imei4g: null,
  iccid: null,
  hostDeviceId: null,
  subDeviceCount: 0,
  thirdPartyId: null,
  thirdPartyStatus: null,
  thirdPartySyncTime: null,
  firmwareUpgrade: null,
  pendingCommands: [],
  providerId: 7,
  providerName: 'Sunrise Care',
  placeKind: 'bed',
  bunkId: 3,
  bunkName: '1',
  roomId: 11,
  roomName: '101',
  floorId: 21,
  floorName: 'Floor 1',
  areaId: 20,
  areaName: 'Building A',
  userId: 5,
  userName: 'Li Wei',
  caregiverId: null,
  caregiverName: null,
  remark: null,
  createTime: '2026-01-01T09:00:00.000Z',
  ...overrides,
});

export const page = <T>(rows: T[], total = rows.length) => ({ rows, total, pageNum: 1, pageSize: 10 });

/** Option elements of the antd Select dropdowns opened so far. */
const shownOptions = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')];

/** Opens an antd Select (found by test id, or the element given) and clicks the option showing `label`. */
export const choose = async (select: string | HTMLElement, label: string) => {
  const target = typeof select === 'string' ? screen.getByTestId(select) : select;
  fireEvent.mouseDown(target);
  const option = await waitFor(() => {
    const found = shownOptions()
      .reverse()
      .find((o) => o.textContent === label);
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
};

/** The button of the open confirmation dialog (antd's modal.confirm) with this text. */
export const confirmButton = async (text: string): Promise<HTMLElement> =>
  waitFor(() => {
    const button = [...document.querySelectorAll<HTMLElement>('.ant-modal-confirm .ant-btn')].find(
      (b) => b.textContent === text,
    );
    if (!button) throw new Error(`no confirm button ${text}`);
    return button;
  });

/** The footer button of the open (non-confirm) dialog with this text. */
export const dialogButton = async (text: string): Promise<HTMLElement> =>
  waitFor(() => {
    const button = [...document.querySelectorAll<HTMLElement>('.ant-modal-footer .ant-btn')]
      .reverse()
      .find((b) => b.textContent === text);
    if (!button) throw new Error(`no dialog button ${text}`);
    return button;
  });

/** Validation messages shown in forms right now. */
export const formErrors = (): string[] =>
  [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent ?? '');

/** Hovers a disabled action and waits for the tooltip giving its reason (shared by every screen's tests). */
export { expectRefusal } from '../../test/refusal.ts';

/** A whole provider row as queryProviderList answers it. */
export const providerRow = (over: Partial<Provider> & Pick<Provider, 'id' | 'name'>): Provider => ({
  number: `P${over.id}`,
  domain: `d${over.id}`,
  userName: `provider${over.id}`,
  providerClass: 1,
  parentId: null,
  parentName: null,
  logoUrl: null,
  platformName: null,
  enabled: true,
  remark: null,
  createTime: '2026-01-02T03:04:05.000Z',
  ...over,
});
