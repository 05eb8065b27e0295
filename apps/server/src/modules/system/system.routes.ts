import type { Handlers } from '../../http/register-calls.ts';
import { callerOf } from '../../http/call-context.ts';
import type { SystemService } from './system.service.ts';

export const systemHandlers = (
  system: SystemService,
): Pick<Handlers, 'getPlatformName' | 'postPlatformName' | 'uploadLogo' | 'getFile'> => ({
  getPlatformName: (_input, ctx) => system.platformFor(ctx.caller),
  async postPlatformName(input, ctx) {
    await system.setPlatform(callerOf(ctx), input, ctx.ip);
    return null;
  },
  uploadLogo: (input, ctx) => system.uploadLogo(callerOf(ctx), input.file),
  getFile: (input) => system.file(input.id),
});
