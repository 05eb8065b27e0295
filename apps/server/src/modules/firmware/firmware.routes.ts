import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { FirmwareService } from './firmware.service.ts';

type FirmwareCalls =
  | 'firmwarePageList'
  | 'firmwareUpload'
  | 'firmwarePost'
  | 'firmwareUpdate'
  | 'firmwareDelete'
  | 'greyDevicePost'
  | 'greyDeviceDelete'
  | 'greyDeviceList'
  | 'firmwareUpgradeList';

/** Handlers of the firmware calls: input already validated, one service call each. */
export const firmwareHandlers = (firmware: FirmwareService): Pick<Handlers, FirmwareCalls> => ({
  firmwarePageList: (input, ctx) => firmware.page(callerOf(ctx), input),
  firmwareUpload: (input, ctx) => firmware.upload(callerOf(ctx), input, ctx.ip),
  firmwarePost: (input, ctx) => firmware.release(callerOf(ctx), input, ctx.ip),
  firmwareUpdate: (input, ctx) => firmware.control(callerOf(ctx), input, ctx.ip),
  firmwareDelete: (input, ctx) => firmware.remove(callerOf(ctx), input.id, ctx.ip),
  greyDevicePost: (input, ctx) => firmware.addGreyDevices(callerOf(ctx), input, ctx.ip),
  greyDeviceDelete: (input, ctx) => firmware.removeGreyDevice(callerOf(ctx), input, ctx.ip),
  greyDeviceList: (input, ctx) => firmware.greyList(callerOf(ctx), input),
  firmwareUpgradeList: (input, ctx) => firmware.upgradeList(callerOf(ctx), input),
});
