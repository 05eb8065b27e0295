import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  appPackageUpload,
  appVersionAdd,
  appVersionDelete,
  appVersionList,
  appVersionUpdateStatus,
  h5VersionAdd,
  h5VersionList,
  type AppPackage,
  type AppVersion,
  type H5Version,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import {
  confirmButton,
  dialogButton,
  expectRefusal,
  formErrors,
  installFakeApi,
  lastJson,
  lastQuery,
  page,
  requestsTo,
  type FakeApi,
} from '../devices/test-server.ts';
import AppVersionPage from './AppVersionPage.tsx';
import H5VersionPage from './H5VersionPage.tsx';

const version = (over: Partial<AppVersion> & Pick<AppVersion, 'id'>): AppVersion => ({
  platform: 'android',
  versionName: '2.10.3',
  buildNumber: '210300',
  notes: 'Faster alarms',
  storeUrl: 'https://market.example.com/vigil',
  file: null,
  force: false,
  state: 'unpublished',
  uploadTime: '2026-11-20T08:00:00.000Z',
  publishTime: null,
  offShelfTime: null,
  h5: null,
  ...over,
});

const h5 = (over: Partial<H5Version> & Pick<H5Version, 'id'>): H5Version => ({
  versionName: '1.4.0',
  file: {
    fileId: 30,
    fileName: 'pages.zip',
    size: 2 * 1024 * 1024,
    sha256: 'a'.repeat(64),
    downloadUrl: '/version/apph5version/download?id=30',
  },
  state: 'unpublished',
  uploadTime: '2026-11-20T08:00:00.000Z',
  publishTime: null,
  offShelfTime: null,
  ...over,
});

const VERSIONS = [
  version({ id: 1 }),
  version({ id: 2, platform: 'ios', versionName: '2.9.0', buildNumber: '209000', force: true, state: 'published' }),
  version({ id: 3, versionName: '2.8.0', buildNumber: '208000', state: 'offShelf', notes: 'Old one' }),
];

const uploaded: AppPackage = {
  fileId: 44,
  packageType: 'apk',
  fileName: 'vigil.apk',
  size: 5 * 1024 * 1024,
  sha256: 'b'.repeat(64),
  uploadTime: '2026-11-20T08:00:00.000Z',
};

/**
 * XMLHttpRequest as the upload helper uses it: reports progress, then answers the upload call
 * (checked against the contract like every fake answer).
 */
class FakeXhr {
  static sent: { path: string; form: FormData }[] = [];
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  private path = '';
  open(_method: string, path: string) {
    this.path = path;
  }
  setRequestHeader() {}
  send(form: FormData) {
    FakeXhr.sent.push({ path: this.path, form });
    const envelope = { status: 200, msg: 'ok', data: uploaded };
    checkFakeAnswer(this.path, envelope);
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.status = 200;
      this.responseText = JSON.stringify(envelope);
      this.onload?.();
    }, 0);
  }
}

let i18n: I18n;
let api: FakeApi;
const realXhr = globalThis.XMLHttpRequest;

beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  api = installFakeApi();
  api.routes.set(appVersionList.path, () => ({ data: page(VERSIONS) }));
  api.routes.set(h5VersionList.path, () => ({
    data: page([h5({ id: 5 }), h5({ id: 6, versionName: '1.3.0', state: 'published' })]),
  }));
  FakeXhr.sent = [];
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
});

const rowOf = (text: string): HTMLElement => {
  const row = screen.getByText(text).closest('tr');
  if (!row) throw new Error(`no row with ${text}`);
  return row;
};
const showApp = async () => {
  render(inTestShell(i18n, <AppVersionPage />));
  await screen.findByText('209000');
};
const openAddForm = async () => {
  fireEvent.click(screen.getByTestId('app-add'));
  await waitFor(() => expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Add version'));
};
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('AppVersionPage', () => {
  it('lists versions with platform, version, build, forced flag, state, upload time and notes', async () => {
    await showApp();
    const ios = rowOf('209000');
    expect(within(ios).getByText('iOS')).toBeInTheDocument();
    expect(within(ios).getByText('2.9.0')).toBeInTheDocument();
    expect(within(ios).getByText('Yes')).toBeInTheDocument();
    expect(within(ios).getByText('Published')).toBeInTheDocument();
    expect(within(rowOf('210300')).getByText('Unpublished')).toBeInTheDocument();
    expect(within(rowOf('210300')).getByText('Faster alarms')).toBeInTheDocument();
    expect(within(rowOf('208000')).getByText('Taken down')).toBeInTheDocument();
    expect(within(rowOf('210300')).getByText(formatDateTime('2026-11-20T08:00:00.000Z'))).toBeInTheDocument();
    // Each state offers what the server allows: publish, take down, delete (not while published).
    expect(within(rowOf('210300')).getByText('Publish')).toBeInTheDocument();
    expect(within(ios).queryByText('Publish')).not.toBeInTheDocument();
    expect(within(ios).getByText('Take down')).toBeInTheDocument();
    const deletePublished = within(ios).getByText('Delete').closest('button') as HTMLElement;
    expect(deletePublished).toBeDisabled();
    await expectRefusal(deletePublished, 'A published version cannot be deleted: take it down first.');
  });

  it('checks the version name, build number, notes and source before sending anything', async () => {
    await showApp();
    await openAddForm();
    expect(screen.getByText('0 / 500')).toBeInTheDocument();
    type('Version name', '2.10.');
    type('Build number', '12a');
    type('Update notes', 'x');
    expect(screen.getByText('1 / 500')).toBeInTheDocument();
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(formErrors()).toEqual(
        expect.arrayContaining([
          'Numbers separated by dots, such as 2.10.3: at most 20 characters.',
          '1 to 20 digits, unique for the platform; higher than every published build.',
          'Give the store URL or upload the package.',
        ]),
      ),
    );
    type('Store URL', 'ftp://example.com/app');
    await waitFor(() => expect(formErrors()).toContain('An address starting with http:// or https://.'));
    expect(requestsTo(api, appVersionAdd.path)).toHaveLength(0);
  });

  it('saves a version from its store URL, with the forced flag', async () => {
    api.routes.set(appVersionAdd.path, () => ({ data: version({ id: 9, force: true }) }));
    await showApp();
    await openAddForm();
    type('Version name', ' 2.11.0 ');
    type('Build number', '211000');
    type('Update notes', 'New report screens');
    type('Store URL', 'https://market.example.com/vigil');
    fireEvent.click(screen.getByTestId('app-form-force'));
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, appVersionAdd.path)).toEqual({
        platform: 'android',
        versionName: '2.11.0',
        buildNumber: '211000',
        notes: 'New report screens',
        storeUrl: 'https://market.example.com/vigil',
        force: true,
      }),
    );
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('uploads an APK (a picked file of another kind is refused first) and saves the version with it', async () => {
    api.routes.set(appVersionAdd.path, () => ({ data: version({ id: 9 }) }));
    await showApp();
    await openAddForm();
    type('Version name', '2.11.0');
    type('Build number', '211001');
    type('Update notes', 'Direct download');
    // The upload renders a new file input after each pick.
    const fileInput = () =>
      screen.getByTestId('app-form-package').querySelector('input[type="file"]') as HTMLInputElement;
    // A file of another kind is refused before it is sent.
    fireEvent.change(fileInput(), { target: { files: [new File(['x'], 'vigil.zip')] } });
    expect(await screen.findByText('Choose a .apk file.')).toBeInTheDocument();
    expect(FakeXhr.sent).toHaveLength(0);
    fireEvent.change(fileInput(), { target: { files: [new File(['PK..'], 'vigil.apk')] } });
    expect(await screen.findByText('vigil.apk (5 MB)')).toBeInTheDocument();
    expect(FakeXhr.sent.map((s) => s.path)).toEqual([appPackageUpload.path]);
    expect(FakeXhr.sent[0]?.form.get('packageType')).toBe('apk');
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() =>
      expect(lastJson(api, appVersionAdd.path)).toMatchObject({ fileId: 44, buildNumber: '211001', force: false }),
    );
    expect(lastJson(api, appVersionAdd.path).storeUrl).toBeUndefined();
  });

  it('shows a refusal about the build number under that field', async () => {
    api.routes.set(appVersionAdd.path, () => ({
      status: 300,
      msgKey: 'appRelease.buildExists',
      msg: 'Build 210300 already exists for Android.',
      field: 'buildNumber',
    }));
    await showApp();
    await openAddForm();
    type('Version name', '2.11.0');
    type('Build number', '210300');
    type('Update notes', 'n');
    type('Store URL', 'https://market.example.com/vigil');
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toContain('Build 210300 already exists for Android.'));
  });

  it('publishes and deletes after a confirmation', async () => {
    await showApp();
    fireEvent.click(within(rowOf('210300')).getByText('Publish'));
    expect(
      await screen.findByText('Publish Android 2.10.3 (210300)? The app offers it to its users at once.'),
    ).toBeInTheDocument();
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() =>
      expect(lastJson(api, appVersionUpdateStatus.path)).toEqual({ id: 1, type: 'app', state: 'published' }),
    );
    fireEvent.click(within(rowOf('208000')).getByText('Delete'));
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() => expect(lastQuery(api, appVersionDelete.path)).toEqual({ id: '3' }));
    expect(requestsTo(api, appVersionDelete.path)[0]?.method).toBe('DELETE');
  });
});

describe('H5VersionPage', () => {
  it('lists H5 packages and publishes one as an H5 release', async () => {
    render(inTestShell(i18n, <H5VersionPage />));
    await screen.findByText('1.4.0');
    expect(within(rowOf('1.4.0')).getByText('pages.zip (2 MB)')).toBeInTheDocument();
    expect(within(rowOf('1.3.0')).getByText('Take down')).toBeInTheDocument();
    // A published package links to its download; an unpublished one is not served.
    expect(within(rowOf('1.3.0')).getByText('pages.zip (2 MB)').closest('a')?.getAttribute('href')).toBe(
      '/version/apph5version/download?id=30',
    );
    expect(within(rowOf('1.4.0')).getByText('pages.zip (2 MB)').closest('a')).toBeNull();
    fireEvent.click(within(rowOf('1.4.0')).getByText('Publish'));
    fireEvent.click(await confirmButton('OK'));
    await waitFor(() =>
      expect(lastJson(api, appVersionUpdateStatus.path)).toEqual({ id: 5, type: 'h5', state: 'published' }),
    );
  });

  it('requires a version name and a zip before saving a new package', async () => {
    api.routes.set(h5VersionAdd.path, () => ({ data: h5({ id: 7, versionName: '1.5.0' }) }));
    render(inTestShell(i18n, <H5VersionPage />));
    await screen.findByText('1.4.0');
    fireEvent.click(screen.getByTestId('h5-add'));
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(formErrors()).toEqual(['Required', 'Required']));
    type('H5 version name', '1.5.0');
    const input = screen.getByTestId('h5-form-package').querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['PK..'], 'pages.zip')] } });
    await waitFor(() => expect(FakeXhr.sent[0]?.form.get('packageType')).toBe('h5'));
    fireEvent.click(await dialogButton('Save'));
    await waitFor(() => expect(lastJson(api, h5VersionAdd.path)).toEqual({ versionName: '1.5.0', fileId: 44 }));
  });
});
