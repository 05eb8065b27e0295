import {
  firmwarePageList,
  firmwarePost,
  firmwareUpdate,
  firmwareUpgradeList,
  firmwareUpload,
  getDeviceList,
  greyDeviceList,
  greyDevicePost,
  type Firmware,
  type Rollout,
  type UpgradeCounts,
} from '@vigil/contract/browser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import {
  choose,
  confirmButton,
  device,
  expectRefusal,
  formErrors,
  installFakeApi,
  lastJson,
  lastQuery,
  requestsTo,
  type FakeApi,
} from '../devices/test-server.ts';
import FirmwarePage from './FirmwarePage.tsx';
import { parseStages } from './firmware-model.ts';

const LIST = firmwarePageList.path;
const MD5 = '0123456789abcdef0123456789abcdef';

const counts = (over: Partial<UpgradeCounts> = {}): UpgradeCounts => ({
  total: 0,
  pending: 0,
  deferred: 0,
  inProgress: 0,
  succeeded: 0,
  failed: 0,
  cancelled: 0,
  ...over,
});

const fullRollout = (over: Partial<Rollout> = {}): Rollout => ({
  kind: 'full',
  stages: [5, 25, 100],
  stage: 1,
  failureThreshold: 20,
  state: 'running',
  pausedReason: null,
  forceOccupied: false,
  startTime: '2026-03-02T08:00:00.000Z',
  counts: counts({ total: 40, succeeded: 8, failed: 1, inProgress: 3, pending: 26, deferred: 2 }),
  stageCounts: [
    { stage: 0, percent: 5, ...counts({ total: 2, succeeded: 2 }) },
    { stage: 1, percent: 25, ...counts({ total: 8, succeeded: 6, failed: 1, inProgress: 1 }) },
    { stage: 2, percent: 100, ...counts({ total: 30, inProgress: 2, pending: 26, deferred: 2 }) },
  ],
  ...over,
});

const firmware = (over: Partial<Firmware> & Pick<Firmware, 'id'>): Firmware => ({
  deviceType: 52,
  version: '2.5.0',
  fileName: 'm8701w-2.5.0.zip',
  size: 13_002_342,
  md5: MD5,
  sha256: 'ab'.repeat(32),
  remark: 'Faster Wi-Fi reconnect',
  state: 'unpublished',
  uploadTime: '2026-03-01T08:00:00.000Z',
  uploadedBy: 'Platform admin',
  releaseTime: null,
  offlineTime: null,
  greyCount: 0,
  rollout: null,
  ...over,
});

const UNPUBLISHED = firmware({ id: 1 });
const RUNNING = firmware({
  id: 2,
  version: '2.4.0',
  fileName: 'm8701w-2.4.0.zip',
  state: 'full',
  releaseTime: '2026-03-02T08:00:00.000Z',
  greyCount: 3,
  rollout: fullRollout(),
});
const PAUSED = firmware({
  id: 3,
  version: '2.3.0',
  fileName: 'm8701w-2.3.0.zip',
  state: 'full',
  releaseTime: '2026-02-02T08:00:00.000Z',
  rollout: fullRollout({ state: 'paused', pausedReason: 'admin' }),
});

/** XHR stand-in for the upload (it reports progress, fetch cannot): records the form, answers when told. */
class FakeXhr {
  static last: FakeXhr | null = null;
  url = '';
  body: FormData | null = null;
  status = 200;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  answer(envelope: { status: number; msg: string; msgKey?: string; data: unknown }) {
    checkFakeAnswer(this.url, envelope);
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    this.responseText = JSON.stringify(envelope);
    this.onload?.();
  }
}

let i18n: I18n;
let api: FakeApi;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  api = installFakeApi();
  api.routes.set(LIST, () => okFor(firmwarePageList, pageOf([UNPUBLISHED, RUNNING, PAUSED])));
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const show = async (fileName = 'm8701w-2.4.0.zip') => {
  render(inTestShell(i18n, <FirmwarePage />));
  await screen.findByText(fileName);
};
const rowOf = (fileName: string): HTMLElement => {
  const row = screen.getByText(fileName).closest('tr');
  if (!row) throw new Error(`no row for ${fileName}`);
  return row;
};
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('FirmwarePage: the list', () => {
  it('shows each package with its file, MD5, state and rollout progress', async () => {
    await show();
    expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10 });
    const running = within(rowOf('m8701w-2.4.0.zip'));
    expect(running.getByText('M8701W')).toBeInTheDocument();
    expect(running.getByText('Sleep monitor')).toBeInTheDocument();
    expect(running.getByText('12.4 MB')).toBeInTheDocument();
    expect(running.getByText('01234567…cdef')).toBeInTheDocument();
    expect(running.getByText('Full release')).toBeInTheDocument();
    expect(running.getByText('8 of 40 upgraded')).toBeInTheDocument();
    expect(running.getByText('1 failed · 3 in progress · 26 waiting · 2 deferred')).toBeInTheDocument();
    expect(running.getByText('Stage 2 of 3 (25%)')).toBeInTheDocument();
    expect(running.getByText('Running')).toBeInTheDocument();
    expect(running.getByText('Platform admin')).toBeInTheDocument();

    expect(within(rowOf('m8701w-2.3.0.zip')).getByText('Paused by an administrator')).toBeInTheDocument();
    const unpublished = within(rowOf('m8701w-2.5.0.zip'));
    expect(unpublished.getByText('Unpublished')).toBeInTheDocument();
    expect(unpublished.getByText('Not released')).toBeInTheDocument();
    expect(unpublished.getByText('Faster Wi-Fi reconnect')).toBeInTheDocument();
  });

  it('filters by device type, state and keyword, going back to page 1', async () => {
    await show();
    await choose('firmware-filter-type', 'M8701W · Sleep monitor');
    await waitFor(() => expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, deviceType: 52 }));
    await choose('firmware-filter-state', 'Grey release');
    await waitFor(() => expect(lastJson(api, LIST)).toMatchObject({ deviceType: 52, state: 'grey' }));
    fireEvent.change(screen.getByPlaceholderText('Version, file name or remark'), { target: { value: ' 2.5 ' } });
    fireEvent.click(screen.getByText('Search'));
    await waitFor(() =>
      expect(lastJson(api, LIST)).toEqual({ pageNum: 1, pageSize: 10, deviceType: 52, state: 'grey', keyword: '2.5' }),
    );
  });
});

describe('FirmwarePage: upload', () => {
  const openUpload = async () => {
    await show();
    fireEvent.click(screen.getByTestId('firmware-upload'));
    await screen.findByText('Upload firmware package');
  };
  const chooseFile = (name = 'm8701w-2.6.0.zip') => {
    const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
    const file = new File(['PK'], name, { type: 'application/zip' });
    Object.defineProperty(file, 'size', { value: 2_400_000 });
    fireEvent.change(input, { target: { files: [file] } });
  };

  it('checks the fields as the server does before sending anything', async () => {
    await openUpload();
    type('Version', '2.6.0-beta');
    type('MD5', 'xyz');
    fireEvent.click(screen.getByTestId('firmware-upload-submit'));
    await waitFor(() =>
      expect(formErrors()).toEqual(
        expect.arrayContaining([
          'Required',
          'Numbers separated by dots, such as 2.4.10; at most 20 characters.',
          'The MD5 is 32 hexadecimal digits.',
        ]),
      ),
    );
    expect(FakeXhr.last).toBeNull();
  });

  it('sends the zip with its device type, version, MD5 and remark as one multipart request', async () => {
    await openUpload();
    chooseFile();
    expect(await screen.findByTestId('firmware-file-chosen')).toHaveTextContent('m8701w-2.6.0.zip · 2.3 MB');
    await choose('firmware-upload-type', 'M8701W · Sleep monitor');
    type('Version', ' 2.6.0 ');
    type('MD5', MD5.toUpperCase());
    type('Remark', 'Night-mode fix');
    const listed = requestsTo(api, LIST).length;
    fireEvent.click(screen.getByTestId('firmware-upload-submit'));

    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.url).toBe('/firmware/uploadFile');
    const form = xhr.body as FormData;
    expect((form.get('file') as File).name).toBe('m8701w-2.6.0.zip');
    expect(form.get('deviceType')).toBe('52');
    expect(form.get('version')).toBe('2.6.0');
    expect(form.get('md5')).toBe(MD5.toUpperCase());
    expect(form.get('remark')).toBe('Night-mode fix');

    act(() => xhr.answer(okFor(firmwareUpload, UNPUBLISHED)));
    expect(await screen.findByText('Package uploaded')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(api, LIST).length).toBeGreaterThan(listed));
  });

  it('shows the server’s refusal as it words it and keeps the dialog open', async () => {
    await openUpload();
    chooseFile();
    await choose('firmware-upload-type', 'M8701W · Sleep monitor');
    type('Version', '2.6.0');
    type('MD5', MD5);
    fireEvent.click(screen.getByTestId('firmware-upload-submit'));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const refusal = `The file’s MD5 is ffffffffffffffffffffffffffffffff, not the ${MD5} given: the file may be damaged. Check it and upload it again.`;
    act(() => FakeXhr.last?.answer({ status: 400, msg: refusal, msgKey: 'firmware.md5Mismatch', data: null }));
    expect(await screen.findByTestId('firmware-upload-refused')).toHaveTextContent(refusal);
    expect(screen.getByText('Upload firmware package')).toBeVisible();
  });
});

describe('FirmwarePage: release', () => {
  it('refuses a grey release without a whitelist, and asks before one with it', async () => {
    await show();
    await expectRefusal(screen.getByTestId('firmware-grey-1'), 'Add devices to the whitelist first.');

    api.routes.set(LIST, () => okFor(firmwarePageList, pageOf([{ ...UNPUBLISHED, greyCount: 2 }])));
    api.routes.set(firmwarePost.path, () => okFor(firmwarePost, { ...UNPUBLISHED, state: 'grey' }));
    // A reload (another filter) brings the package with its whitelist.
    await choose('firmware-filter-state', 'Unpublished');
    await waitFor(() => expect(screen.getByTestId('firmware-grey-1')).toBeEnabled());
    fireEvent.click(screen.getByTestId('firmware-grey-1'));
    fireEvent.click(await confirmButton('Grey release'));
    await waitFor(() => expect(lastJson(api, firmwarePost.path)).toEqual({ id: 1, release: 'grey' }));
  });

  it('sends a full release with its stages, failure threshold and the occupied-bed choice', async () => {
    api.routes.set(firmwarePost.path, () => okFor(firmwarePost, { ...UNPUBLISHED, state: 'full' }));
    await show();
    fireEvent.click(screen.getByTestId('firmware-full-1'));
    await screen.findByText('Full release of 2.5.0');
    const stages = screen.getByLabelText('Stages (cumulative share of the devices, %)');
    expect(stages).toHaveValue('5, 25, 100');
    expect(screen.getByLabelText('Failure threshold')).toHaveValue('20');

    fireEvent.change(stages, { target: { value: '50, 25' } });
    fireEvent.click(screen.getByTestId('full-release-submit'));
    await waitFor(() =>
      expect(formErrors()).toContain(
        'Rising per cent values separated by commas, ending at 100, such as 5, 25, 100 (at most 10 stages).',
      ),
    );
    expect(requestsTo(api, firmwarePost.path)).toHaveLength(0);

    fireEvent.change(stages, { target: { value: '10, 50, 100' } });
    fireEvent.change(screen.getByLabelText('Failure threshold'), { target: { value: '30' } });
    fireEvent.click(screen.getByText('Upgrade occupied beds now'));
    expect(await screen.findByTestId('full-release-force-warning')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('full-release-submit'));
    await waitFor(() =>
      expect(lastJson(api, firmwarePost.path)).toEqual({
        id: 1,
        release: 'full',
        stages: [10, 50, 100],
        failureThreshold: 30,
        forceOccupied: true,
      }),
    );
    expect(await screen.findByText('Release started')).toBeInTheDocument();
  });

  it('pauses and resumes a rollout through /firmware/update', async () => {
    api.routes.set(firmwareUpdate.path, (request) =>
      okFor(firmwareUpdate, request.url.searchParams.get('id') === '2' ? RUNNING : PAUSED),
    );
    await show();
    expect(screen.queryByTestId('firmware-resume-2')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('firmware-pause-2'));
    await waitFor(() => expect(lastQuery(api, firmwareUpdate.path)).toEqual({ id: '2', action: 'pause' }));
    expect(await screen.findByText('Rollout paused')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('firmware-resume-3'));
    await waitFor(() => expect(lastQuery(api, firmwareUpdate.path)).toEqual({ id: '3', action: 'resume' }));
  });

  it('asks before resuming a rollout its failures paused, and before stopping one', async () => {
    const failing = { ...PAUSED, rollout: fullRollout({ state: 'paused', pausedReason: 'failures', stage: 0 }) };
    api.routes.set(LIST, () => okFor(firmwarePageList, pageOf([failing])));
    api.routes.set(firmwareUpdate.path, () => okFor(firmwareUpdate, failing));
    await show('m8701w-2.3.0.zip');
    expect(screen.getByText('Paused: failures above 20%')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('firmware-resume-3'));
    fireEvent.click(await confirmButton('Resume'));
    await waitFor(() => expect(lastQuery(api, firmwareUpdate.path)).toEqual({ id: '3', action: 'resume' }));

    fireEvent.click(within(rowOf('m8701w-2.3.0.zip')).getByText('Stop'));
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() => expect(lastQuery(api, firmwareUpdate.path)).toEqual({ id: '3', action: 'stop' }));
  });
});

describe('FirmwarePage: whitelist and progress', () => {
  it('adds devices of the package’s type to its whitelist from a picker', async () => {
    api.routes.set(greyDeviceList.path, () =>
      okFor(
        greyDeviceList,
        pageOf([
          {
            deviceId: 'SLP-1001',
            deviceType: 52,
            name: 'Bed pad 1',
            providerName: 'Sunrise Care',
            online: true,
            firmwareVersion: '2.4.1',
            upgradeState: null,
            progress: null,
          },
        ]),
      ),
    );
    api.routes.set(getDeviceList.path, () =>
      okFor(getDeviceList, pageOf([device(), device({ id: 2, deviceId: 'SLP-1002', name: 'Bed pad 2' })])),
    );
    api.routes.set(greyDevicePost.path, () => okFor(greyDevicePost, { added: 1 }));
    await show();
    fireEvent.click(screen.getByTestId('firmware-whitelist-1'));
    const table = await screen.findByTestId('whitelist-table');
    expect(await within(table).findByText('SLP-1001')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('whitelist-add'));
    const picker = await screen.findByTestId('picker-table');
    await within(picker).findByText('SLP-1002');
    expect(lastJson(api, getDeviceList.path)).toEqual({ deviceType: 52, pageNum: 1, pageSize: 10 });
    // The device already on the whitelist cannot be chosen again.
    await waitFor(() => expect(within(rowOfIn(picker, 'SLP-1001')).getByRole('checkbox')).toBeDisabled());
    await expectRefusal(screen.getByTestId('picker-submit'), 'Tick at least one device first.');
    fireEvent.click(within(rowOfIn(picker, 'SLP-1002')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('picker-submit'));
    await waitFor(() => expect(lastJson(api, greyDevicePost.path)).toEqual({ id: 1, deviceIds: ['SLP-1002'] }));
    expect(await screen.findByText('Devices added to the whitelist: 1')).toBeInTheDocument();
  });

  it('shows a rollout’s stages and devices, refreshing every 5 seconds while it runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      api.routes.set(firmwareUpgradeList.path, () =>
        okFor(
          firmwareUpgradeList,
          pageOf([
            {
              deviceId: 'SLP-1001',
              deviceType: 52,
              name: 'Bed pad 1',
              providerName: 'Sunrise Care',
              online: true,
              firmwareVersion: '2.3.0',
              fromVersion: '2.3.0',
              stage: 1,
              state: 'failed',
              progress: 40,
              reason: 'failedOnDevice',
              error: 'checksum mismatch',
              updateTime: '2026-03-02T09:00:00.000Z',
            },
          ]),
        ),
      );
      await show();
      fireEvent.click(screen.getByTestId('firmware-progress-2'));
      expect(await screen.findByText('Release of 2.4.0 · M8701W · Sleep monitor')).toBeInTheDocument();
      expect(within(screen.getByTestId('stage-1')).getByText('6 of 8 upgraded')).toBeInTheDocument();
      expect(await screen.findByTestId('upgrade-error')).toHaveTextContent('Failed on the device: checksum mismatch');
      expect(lastJson(api, firmwareUpgradeList.path)).toEqual({ id: 2, pageNum: 1, pageSize: 10 });

      await choose('upgrade-filter-state', 'Failed');
      await waitFor(() =>
        expect(lastJson(api, firmwareUpgradeList.path)).toEqual({ id: 2, pageNum: 1, pageSize: 10, state: 'failed' }),
      );
      const [devices, packages] = [requestsTo(api, firmwareUpgradeList.path).length, requestsTo(api, LIST).length];
      await act(() => vi.advanceTimersByTimeAsync(5_100));
      await waitFor(() => expect(requestsTo(api, firmwareUpgradeList.path).length).toBeGreaterThan(devices));
      expect(requestsTo(api, LIST).length).toBeGreaterThan(packages);
    } finally {
      vi.useRealTimers();
    }
  });
});

const rowOfIn = (container: HTMLElement, text: string): HTMLElement => {
  const row = within(container).getByText(text).closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
};

describe('parseStages', () => {
  it('takes rising whole per cents ending at 100, at most ten', () => {
    expect(parseStages('5, 25, 100')).toEqual([5, 25, 100]);
    expect(parseStages('5，25，100')).toEqual([5, 25, 100]);
    expect(parseStages('100')).toEqual([100]);
    expect(parseStages('25, 5, 100')).toBeNull();
    expect(parseStages('5, 25')).toBeNull();
    expect(parseStages('0, 100')).toBeNull();
    expect(parseStages('5.5, 100')).toBeNull();
    expect(parseStages('')).toBeNull();
    expect(parseStages('1,2,3,4,5,6,7,8,9,10,100')).toBeNull();
  });
});
