import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger-options.ts';

describe('the server log format', () => {
  it('is JSON when stdout is not a terminal (log collectors), pretty in a terminal', () => {
    expect(loggerOptions('info', 'auto', false)).toEqual({ level: 'info' });
    expect(loggerOptions('info', 'auto', true)).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
  });

  it('follows LOG_FORMAT over the terminal check', () => {
    expect(loggerOptions('warn', 'json', true)).toEqual({ level: 'warn' });
    expect(loggerOptions('warn', 'pretty', false)).toMatchObject({ transport: { target: 'pino-pretty' } });
  });
});
