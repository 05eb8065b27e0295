import { z } from 'zod';
import { AlarmRecordSchema } from './calls/alarms.ts';
import { LiveVitalsSchema } from './calls/monitor.ts';
import { MONITOR_LIMITS } from './monitor-constants.ts';
import { ALARM_TYPES } from './domain.ts';

/**
 * The console's live socket (spec document 2 sections 4 and 7): JSON text frames
 * `{"path": "/…", "data": …}`, declared once here so the server, the console's socket client
 * and docs/socket.md (generated) cannot drift. An external interface: frames are only ever added.
 */

export {
  DATA_CHANGE_TOUCHES,
  DATA_CHANGES,
  FRAME_TOUCHES,
  SOCKET_CLOSE,
  SOCKET_PATH,
  SOCKET_TIMING,
  WS_LOG_TYPES,
} from './socket-constants.ts';
export type { DataChange, WsLogType } from './socket-constants.ts';
import { DATA_CHANGES, WS_LOG_TYPES } from './socket-constants.ts';

const key = z.string().min(1).max(128).describe("The login answer's `key`");

// --- Console → server ---------------------------------------------------------------------------

export const SocketLoginSchema = z.object({ path: z.literal('/login'), data: z.object({ key }) });
export const SocketHeartbeatSchema = z.object({
  path: z.literal('/hearBeat'),
  data: z.object({ key, msg: z.string().max(64).optional().describe('Anything, e.g. "ping"') }),
});
export const SocketWsLogSchema = z.object({
  path: z.literal('/wsLog'),
  data: z.object({
    key,
    msg: z
      .object({
        type: z
          .enum(WS_LOG_TYPES)
          .describe('newAlarm: shown; relieveAlarm: released on this console; playAlarm: spoken or played (once)'),
        alertRecordId: z.number().int().min(1),
      })
      .describe("What the console did with an alarm: kept on the alarm's timeline"),
  }),
});
export const SocketSubscribeSchema = z.object({
  path: z.literal('/websocket/subscribe/'),
  data: z.object({
    key,
    userIds: z
      .array(z.number().int().min(1))
      .max(MONITOR_LIMITS.maxSubscribed)
      .describe('Residents whose vitals this socket follows; replaces its previous list; [] stops'),
  }),
});
export const SocketClientFrameSchema = z.discriminatedUnion('path', [
  SocketLoginSchema,
  SocketHeartbeatSchema,
  SocketWsLogSchema,
  SocketSubscribeSchema,
]);
export type SocketClientFrame = z.infer<typeof SocketClientFrameSchema>;

// --- Server → console ---------------------------------------------------------------------------

/** A released alarm, as /userStatusNotify carries it: the record with alertType RELIVE_ALERT. */
export const RelieveNoticeSchema = AlarmRecordSchema.omit({ alertType: true }).extend({
  alertType: z.literal('RELIVE_ALERT'),
  relievedType: z.enum(ALARM_TYPES).describe('The type of the alarm released'),
});
export type RelieveNotice = z.infer<typeof RelieveNoticeSchema>;

/** A note added to an alarm's timeline (/alarmLog/addNote), as /alarmNoteNotify carries it. */
export const AlarmNoteSchema = z
  .object({
    id: z.number().int().describe('The alarm'),
    at: z.number().describe('When the note was added, Unix seconds with milliseconds'),
    who: z.string().nullable().describe('Who added it, named as the timeline names people'),
    note: z.string(),
  })
  .describe("A note added to an alarm's timeline: consoles showing the alarm's timeline reload it");
export type AlarmNote = z.infer<typeof AlarmNoteSchema>;

export const SocketServerFrameSchema = z.discriminatedUnion('path', [
  z.object({
    path: z.literal('/login'),
    code: z.union([z.literal(200), z.literal(401)]).describe('401: the key is unknown or its session ended; closed'),
  }),
  z.object({ path: z.literal('/hearBeat'), code: z.literal(200) }),
  z.object({
    path: z.literal('/alertNotify'),
    data: AlarmRecordSchema.describe(
      'A new alarm from a sleep monitor, fall radar, call button, badge or device fault',
    ),
  }),
  z.object({ path: z.literal('/safeAlertNotify'), data: AlarmRecordSchema.describe('A new security-sensor alarm') }),
  z.object({ path: z.literal('/userStatusNotify'), data: RelieveNoticeSchema }),
  z.object({
    path: z.literal('/alarmNoteNotify'),
    data: AlarmNoteSchema,
  }),
  z.object({
    path: z.literal('/dataChange'),
    data: z.object({ what: z.enum(DATA_CHANGES) }).describe('Reload what changed (alarm settings)'),
  }),
  z.object({
    path: z.literal('/checkAlarm'),
    data: z.object({}).describe('Reload the pending alarms of the last hour (/alarmLog/unDeal) and restart speech'),
  }),
  z.object({
    path: z.literal('/vitalsNotify'),
    data: z
      .object({ rows: z.array(LiveVitalsSchema) })
      .describe(
        'The followed beds whose vitals or online state changed in the last second (at most one frame a second)',
      ),
  }),
  z.object({
    path: z.literal('/error'),
    code: z.literal(400),
    msg: z.string().describe('Why a frame was refused (the socket stays open)'),
  }),
]);
export type SocketServerFrame = z.infer<typeof SocketServerFrameSchema>;
