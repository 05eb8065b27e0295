import { Status, translate, type Language } from '@vigil/contract';
import { AppError } from '../../core/app-error.ts';
import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { DeviceServices } from './devices.module.ts';
import { wordProblem } from './row-problems.ts';
import type { RemovalOutcome } from './telecom/telecom-sync.service.ts';

type DeviceCalls =
  | 'deviceStockImport'
  | 'deviceStockList'
  | 'deviceStockRemove'
  | 'deviceStockSetSecret'
  | 'getDeviceList'
  | 'getDeviceSummary'
  | 'deviceTypes'
  | 'insertDevice'
  | 'updateDevice'
  | 'deleteDevice'
  | 'isUploadData'
  | 'updateInterval'
  | 'updateAlgMode'
  | 'forceInitSensor'
  | 'restartDevice'
  | 'syncThirdDevice'
  | 'syncAllThirdDevice'
  | 'heGetDeviceList'
  | 'heAddHost'
  | 'heInsertDevice'
  | 'heReplaceDevice'
  | 'heDeleteDevice'
  | 'heChangProvider'
  | 'heSubDevicePair'
  | 'heSubDevicePair2'
  | 'heSubDevicePairStatus'
  | 'heSubDeviceUnPair'
  | 'deviceCommandList';

const removal = (outcome: RemovalOutcome, lang: Language) => ({
  telecom: outcome.telecom,
  telecomMsg: outcome.telecom === 'failed' ? translate(lang, outcome.key, outcome.params) : null,
});

export const deviceHandlers = (s: DeviceServices): Pick<Handlers, DeviceCalls> => ({
  async deviceStockImport(input, ctx) {
    const { added, problems } = await s.stock.import(callerOf(ctx), input.rows, ctx.ip);
    if (problems.length) {
      throw new AppError(Status.INVALID_INPUT, 'deviceStock.rowErrors', { count: problems.length }, 200, {
        problems: problems.map((p) => wordProblem(ctx.lang, p)),
      });
    }
    return { added };
  },
  async deviceStockList(input, ctx) {
    const { rows, total } = await s.stock.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  async deviceStockRemove(input, ctx) {
    await s.stock.remove(callerOf(ctx), input.deviceId, ctx.ip);
    return null;
  },
  deviceStockSetSecret: (input, ctx) => s.stock.setSecret(callerOf(ctx), input, ctx.ip),
  async getDeviceList(input, ctx) {
    const { rows, total } = await s.devices.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  getDeviceSummary: async (input, ctx) => s.devices.summary(callerOf(ctx), input.providerId),
  deviceTypes: async (input) => s.devices.types(input.abroad),
  async insertDevice(input, ctx) {
    const row = await s.devices.add(callerOf(ctx), input, ctx.ip);
    return { id: row.id, deviceId: row.deviceId };
  },
  async updateDevice(input, ctx) {
    await s.devices.update(callerOf(ctx), input, ctx.ip);
    return null;
  },
  deleteDevice: async (input, ctx) => removal(await s.devices.remove(callerOf(ctx), input.deviceId, ctx.ip), ctx.lang),
  async isUploadData(input, ctx) {
    await s.devices.setUploadData(callerOf(ctx), input.deviceId, input.uploadData, ctx.ip);
    return null;
  },
  updateInterval: (input, ctx) => s.commands.interval(callerOf(ctx), input.deviceId, input.interval, ctx.ip),
  updateAlgMode: (input, ctx) => s.commands.algMode(callerOf(ctx), input.deviceId, input.algMode, ctx.ip),
  forceInitSensor: (input, ctx) => s.commands.forceInit(callerOf(ctx), input.deviceId, input.emptyBed, ctx.ip),
  restartDevice: (input, ctx) => s.commands.restart(callerOf(ctx), input.deviceId, ctx.ip),
  async deviceCommandList(input, ctx) {
    const { rows, total } = await s.commands.history(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  syncThirdDevice: (input, ctx) => s.telecom.syncOne(callerOf(ctx), input.deviceId),
  async syncAllThirdDevice(input, ctx) {
    const { total, synced, failed } = await s.telecom.syncAll(callerOf(ctx), input.providerId);
    return {
      total,
      synced,
      failed: failed.map((f) => ({ deviceId: f.deviceId, msgKey: f.key, msg: translate(ctx.lang, f.key, f.params) })),
    };
  },
  async heGetDeviceList(input, ctx) {
    const { rows, total } = await s.gateways.hosts(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  async heAddHost(input, ctx) {
    const row = await s.gateways.addHost(callerOf(ctx), input, ctx.ip);
    return { id: row.id, deviceId: row.deviceId };
  },
  async heInsertDevice(input, ctx) {
    const row = await s.gateways.addSubDevice(callerOf(ctx), input, ctx.ip);
    return { id: row.id, deviceId: row.deviceId };
  },
  async heReplaceDevice(input, ctx) {
    const result = await s.gateways.replace(callerOf(ctx), input.deviceId, input.newDeviceId, ctx.ip);
    return { id: result.id, deviceId: result.deviceId, ...removal(result.removal, ctx.lang) };
  },
  heDeleteDevice: async (input, ctx) =>
    removal(await s.gateways.remove(callerOf(ctx), input.deviceId, input.deviceType, ctx.ip), ctx.lang),
  heSubDevicePair: (input, ctx) => s.gateways.pairing.pair(callerOf(ctx), input, ctx.ip),
  heSubDevicePair2: (input, ctx) => s.gateways.pairing.pairScan(callerOf(ctx), input, ctx.ip),
  heSubDevicePairStatus: (input, ctx) => s.gateways.pairing.status(callerOf(ctx), input),
  heSubDeviceUnPair: (input, ctx) => s.gateways.pairing.unpair(callerOf(ctx), input, ctx.ip),
  heChangProvider: (input, ctx) => s.gateways.changeProvider(callerOf(ctx), input.deviceId, input.providerId, ctx.ip),
});
