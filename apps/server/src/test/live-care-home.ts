import {
  adminLogin,
  createClient,
  deviceCalls,
  insertProvider,
  SocketServerFrameSchema,
  SOCKET_TIMING,
  type ApiClient,
  type SocketServerFrame,
} from '@vigil/contract';
import { WebSocket } from 'ws';
import { until } from './until.ts';

/**
 * A care home set up through a running server's API, as a platform administrator and the home
 * would: for tests and drills that run whole server processes (spawned, killed, cut off from
 * their database or broker).
 */
export interface LiveCareHome {
  /** The home's session: its token for calls and its key for consoles. */
  token: string;
  key: string;
  providerId: number;
  client: (baseUrl: string) => ApiClient;
}

export const apiClient = (baseUrl: string, token: () => string | null): ApiClient =>
  createClient({ baseUrl, getToken: token, getLanguage: () => 'en-US' });

/** A class 2 provider with these devices in the registry (with their secrets) and added to it. */
export const setUpCareHome = async (
  baseUrl: string,
  options: {
    adminPassword: string;
    name: string;
    devices: { deviceId: string; deviceType: number; secret?: string }[];
  },
): Promise<LiveCareHome> => {
  let adminToken: string | null = null;
  const admin = apiClient(baseUrl, () => adminToken);
  adminToken = (
    await admin.call(adminLogin, { userName: 'admin', passWord: options.adminPassword, from: 'PC', rsa: false })
  ).token;
  const userName = options.name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 16);
  const password = 'Care#Home2026';
  await admin.call(insertProvider, { name: options.name, userName, passWord: password });
  await admin.call(deviceCalls.deviceStockImport, { rows: options.devices });
  const login = await apiClient(baseUrl, () => null).call(adminLogin, {
    userName,
    passWord: password,
    from: 'PC',
    rsa: false,
  });
  const home = apiClient(baseUrl, () => login.token);
  for (const d of options.devices)
    await home.call(deviceCalls.insertDevice, { deviceId: d.deviceId, deviceType: d.deviceType });
  return {
    token: login.token,
    key: login.key,
    providerId: login.providerId ?? 0,
    client: (url) => apiClient(url, () => login.token),
  };
};

/** A console's live socket that logs in and keeps its heartbeat, as the web console does. */
export interface LiveConsole {
  frames: SocketServerFrame[];
  /** Close codes, in order (a console that reconnects may close several times). */
  closes: number[];
  ws: WebSocket;
  close: () => void;
}

export const openLiveConsole = async (
  wsUrl: string,
  key: string,
  heartbeatMs: number = SOCKET_TIMING.heartbeatMs,
): Promise<LiveConsole> => {
  const ws = new WebSocket(`${wsUrl}?lang=en-US`);
  const console: LiveConsole = { frames: [], closes: [], ws, close: () => undefined };
  ws.on('message', (data) => console.frames.push(SocketServerFrameSchema.parse(JSON.parse(String(data)))));
  ws.on('close', (code) => console.closes.push(code));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ path: '/login', data: { key } }));
  await until(() => console.frames.some((f) => f.path === '/login'), { what: 'the console logged in' });
  const login = console.frames.find((f) => f.path === '/login');
  if (!login || !('code' in login) || login.code !== 200) throw new Error('console login refused');
  const beat = setInterval(() => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ path: '/hearBeat', data: { key, msg: 'ping' } }));
  }, heartbeatMs);
  console.close = () => {
    clearInterval(beat);
    ws.terminate();
  };
  return console;
};
