import type { StreamedBody } from '@vigil/contract';
import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { AppReleaseService } from './app-release.service.ts';

type AppReleaseCalls =
  | 'appVersionList'
  | 'appPackageUpload'
  | 'appVersionAdd'
  | 'appVersionAddWithH5'
  | 'appVersionUpdateStatus'
  | 'appVersionReleaseList'
  | 'appVersionOffShelf'
  | 'appVersionDelete'
  | 'h5VersionList'
  | 'h5VersionAdd'
  | 'h5VersionUpdate'
  | 'h5VersionDelete'
  | 'appLastVersion'
  | 'appPackageDownload';

/** Handlers of the app and H5 release calls: input already validated, one service call each. */
export const appReleaseHandlers = (releases: AppReleaseService): Pick<Handlers, AppReleaseCalls> => ({
  appVersionList: (input) => releases.list(input),
  appPackageUpload: (input, ctx) => releases.upload(callerOf(ctx), input.file, input.packageType),
  appVersionAdd: (input, ctx) => releases.add(callerOf(ctx), input),
  appVersionAddWithH5: (input, ctx) => releases.add(callerOf(ctx), input),
  async appVersionUpdateStatus(input) {
    await releases.publish(input.type, input.id);
    return null;
  },
  appVersionReleaseList: (input) => releases.releaseList(input),
  async appVersionOffShelf(input) {
    await releases.offShelf(input.type, input.id);
    return null;
  },
  async appVersionDelete(input) {
    await releases.deleteVersion(input.id);
    return null;
  },
  h5VersionList: (input) => releases.listH5(input),
  h5VersionAdd: (input, ctx) => releases.addH5(callerOf(ctx), input),
  h5VersionUpdate: (input) => releases.updateH5(input),
  async h5VersionDelete(input) {
    await releases.deleteH5(input.id);
    return null;
  },
  appLastVersion: (input) => releases.lastVersion(input.platform, input.build),
  async appPackageDownload(input) {
    const file = await releases.download(input.id);
    const body: StreamedBody = { ...file };
    return body;
  },
});
