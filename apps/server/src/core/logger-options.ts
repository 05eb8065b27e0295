import type { FastifyServerOptions } from 'fastify';

/**
 * The server's log: JSON lines by default (what log collectors read), pino's pretty lines when
 * a person reads it — `LOG_FORMAT=pretty`, or `auto` (the default) with stdout a terminal.
 */
export const loggerOptions = (
  level: string,
  format: 'auto' | 'json' | 'pretty',
  isTerminal: boolean = Boolean(process.stdout.isTTY),
): NonNullable<FastifyServerOptions['logger']> =>
  format === 'pretty' || (format === 'auto' && isTerminal)
    ? {
        level,
        transport: {
          target: 'pino-pretty',
          options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: false },
        },
      }
    : { level };
