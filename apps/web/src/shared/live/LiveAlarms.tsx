import {
  alarmLogUnDeal,
  CONSTANTS,
  queryAlertLevel,
  type AlarmRecord,
  type SocketServerFrame,
} from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { reloadForFrame, useCall } from '../api/use-call.ts';
import { Alert, App, Button, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { AlarmMeasure, ElapsedSince } from './AlarmFigures.tsx';
import { handleAlarmPath, residentLivePath } from './alarm-links.ts';
import { useSession } from '../session/session-store.ts';
import { AlarmSocket, socketUrl, type SocketState } from './alarm-socket.ts';
import { AlarmUpdates } from './alarm-updates.ts';
import { AlarmVoice, browserClock, browserSpeaker } from './alarm-voice.ts';
import { LiveVitalsContext } from './live-vitals.tsx';
import { PendingAlarms } from './pending-alarms.ts';
import { VitalsStore } from './vitals-store.ts';

/** The alarm sound of voice mode 1 (apps/web/public/alarm.wav). */
const ALARM_SOUND = '/alarm.wav';
/** Menu entries whose roles hear alarms live. */
const LIVE_MENUS = ['RealTime', 'alarm'];

interface LiveAlarmsValue {
  pending: AlarmRecord[];
  state: SocketState;
  /** The browser blocks sound until the user has interacted with the page. */
  soundBlocked: boolean;
  enableSound: () => void;
  /** Removes a handled alarm at once (the socket's release follows). */
  handled: (id: number) => void;
  /** The latest state the socket pushed of each alarm: what another terminal did with it. */
  updates: AlarmUpdates;
}

const LiveAlarmsContext = createContext<LiveAlarmsValue>({
  pending: [],
  state: 'closed',
  soundBlocked: false,
  enableSound: () => undefined,
  handled: () => undefined,
  updates: new AlarmUpdates(),
});

export const useLiveAlarms = (): LiveAlarmsValue => useContext(LiveAlarmsContext);

/** The latest state the live socket pushed of an alarm (released elsewhere, cleared), if any. */
export const useAlarmUpdate = (id: number): AlarmRecord | undefined => {
  const { updates } = useLiveAlarms();
  return useSyncExternalStore(updates.subscribe, () => updates.get(id));
};

const hasBeenActive = (): boolean =>
  (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ?? true;

/**
 * Alarms as they happen (spec document 2 section 4): the socket, the pending list of the chosen
 * provider, speech and sound by each alarm's voice mode, a 10 s notification unless the screen is
 * under 768 px or the level's popups are off, and the screens' data refreshed by what is pushed.
 * It also carries the residents' vitals: the socket follows whom the mounted screens watch
 * (useLiveVitals) and hands them every `/vitalsNotify` frame.
 */
export const LiveAlarms = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { notification } = App.useApp();
  const info = session.info;
  const live = !!info && info.menuList.some((m) => LIVE_MENUS.includes(m));
  const providerId = info?.currentProvider?.id ?? info?.providerId ?? 'all';
  const key = live ? info.key : null;

  const store = useMemo(() => new PendingAlarms(providerId), [providerId]);
  const pending = useSyncExternalStore(store.subscribe, store.list);
  const [vitals] = useState(() => new VitalsStore());
  const [updates] = useState(() => new AlarmUpdates());
  const [state, setState] = useState<SocketState>('closed');
  const [soundBlocked, setSoundBlocked] = useState(() => live && !hasBeenActive());

  const settings = useCall(queryAlertLevel, {}, { enabled: live, staleTime: 5 * 60_000 });
  const navigate = useNavigate();
  /** The alarms whose popup is open now. */
  const popups = useRef(new Set<number>());
  /**
   * A new alarm's popup. Level 1 stays until a person handles the alarm (it latches: decision
   * 0035) and carries Handle and View; level 2 goes after 10 s, as the spec has it.
   */
  const popUp = (alarm: AlarmRecord, title: string, text: string) => {
    const latching = alarm.alertLevel === 1;
    popups.current.add(alarm.id);
    notification.open({
      key: `alarm-${alarm.id}`,
      type: latching ? 'error' : 'warning',
      message: title,
      // What happened, the figure that raised it (nothing extra for an event), and how long ago.
      description: (
        <Space orientation="vertical" size={2} data-testid={`popup-${alarm.id}`}>
          <span>{text}</span>
          <AlarmMeasure alarm={alarm} strong />
          <Typography.Text type="secondary">
            <ElapsedSince since={alarm.timeStamp} />
          </Typography.Text>
        </Space>
      ),
      duration: latching ? 0 : CONSTANTS.notificationDisplayMs / 1000,
      onClose: () => popups.current.delete(alarm.id),
      actions: (
        <Space>
          {alarm.userId !== null && (
            <Button size="small" onClick={() => navigate(residentLivePath(alarm.userId ?? 0))} data-testid="popup-view">
              {t('live.view')}
            </Button>
          )}
          <Button
            size="small"
            type="primary"
            danger={latching}
            data-testid="popup-handle"
            onClick={() => navigate(handleAlarmPath(alarm.id))}
          >
            {t('live.handle')}
          </Button>
        </Space>
      ),
    });
  };
  // Read by the socket's handlers through a ref: a settings reload must not reconnect the socket.
  const latest = useRef({ settings: settings.data, notification, t, popUp, popups: popups.current });
  latest.current = { settings: settings.data, notification, t, popUp, popups: popups.current };

  useEffect(() => {
    if (!soundBlocked) return;
    const unblock = () => setSoundBlocked(false);
    // Hidden once the click is over, not at pointerdown: the banner going then would move the
    // page up under the pointer, and the first click (on "Handle", say) would miss its button.
    window.addEventListener('click', unblock, { once: true });
    window.addEventListener('keydown', unblock, { once: true });
    return () => {
      window.removeEventListener('click', unblock);
      window.removeEventListener('keydown', unblock);
    };
  }, [soundBlocked]);

  useEffect(() => {
    if (!key) return;
    let socket: AlarmSocket | undefined = undefined;
    const voice = new AlarmVoice(browserSpeaker(ALARM_SOUND), browserClock, i18n.language, (id) =>
      socket?.log('playAlarm', id),
    );
    // What the frame makes stale, as the contract lists it (FRAME_TOUCHES).
    const refresh = (frame: { path: string; data?: unknown }) => void reloadForFrame(queryClient, frame);
    // The last hour's pending alarms, newest first; speech starts again from them.
    const checkPending = async () => {
      const since = Math.floor(Date.now() / 1000) - CONSTANTS.pendingAlarmLookbackSeconds;
      const page = await api(alarmLogUnDeal, {
        startTime: since,
        pageNum: 1,
        pageSize: CONSTANTS.pendingAlarmPageSize,
        orderBy: 'timeStamp',
        order: 'desc',
      });
      store.replace(page.rows);
      voice.clear();
      for (const alarm of [...page.rows].reverse()) voice.add(alarm);
      refresh({ path: '/checkAlarm' });
    };
    const onFrame = (frame: Exclude<SocketServerFrame, { path: '/login' | '/hearBeat' }>) => {
      switch (frame.path) {
        case '/alertNotify':
        case '/safeAlertNotify': {
          const alarm = frame.data;
          if (!store.add(alarm)) return;
          socket?.log('newAlarm', alarm.id);
          voice.add(alarm);
          // Under 768 px the alarm is only heard: no popup (spec document 2 section 4).
          const { settings: levels, t } = latest.current;
          const popup = (alarm.alertLevel === 1 ? levels?.alertTypeL1.pc : levels?.alertTypeL2.pc) ?? true;
          if (window.innerWidth >= CONSTANTS.popupSuppressBelowPx && popup) {
            latest.current.popUp(alarm, t(alarm.alertLevel === 1 ? 'live.newAlarm.1' : 'live.newAlarm.2'), alarm.text);
          }
          refresh(frame);
          return;
        }
        case '/userStatusNotify': {
          const { relievedType, ...rest } = frame.data;
          const alarm: AlarmRecord = { ...rest, alertType: relievedType };
          updates.push(alarm);
          if (alarm.awaitingAck) {
            // Cleared by itself but latching: the card, the popup and the voice stay until a person handles it.
            store.settle(alarm);
            if (alarm.clearedTime !== null && latest.current.popups.has(alarm.id)) {
              const time = dayjs.unix(alarm.clearedTime).format('HH:mm:ss');
              latest.current.popUp(alarm, latest.current.t('live.resolved', { time }), alarm.text);
            }
            refresh(frame);
            return;
          }
          if (store.release(frame.data.id)) socket?.log('relieveAlarm', frame.data.id);
          voice.release(frame.data.id);
          latest.current.notification.destroy(`alarm-${frame.data.id}`);
          refresh(frame);
          return;
        }
        case '/dataChange':
        case '/alarmNoteNotify':
          refresh(frame);
          return;
        case '/checkAlarm':
          void checkPending().catch(() => undefined);
          return;
        case '/vitalsNotify':
          vitals.receive(frame.data.rows);
          return;
        case '/error':
          return;
      }
    };
    socket = new AlarmSocket({
      url: socketUrl(window.location, i18n.language),
      key,
      onFrame,
      onOpen: () => void checkPending().catch(() => undefined),
      onState: setState,
    });
    // The residents the mounted screens watch, followed again after every reconnect.
    const disconnect = vitals.connect((userIds) => socket?.follow(userIds));
    socket.start();
    return () => {
      disconnect();
      socket?.stop();
      voice.clear();
    };
  }, [key, store, vitals, updates, i18n.language, queryClient]);

  const value = useMemo<LiveAlarmsValue>(
    () => ({
      pending,
      state,
      soundBlocked,
      enableSound: () => {
        // Called from a click: the browser now lets the page speak and play.
        window.speechSynthesis?.speak(new SpeechSynthesisUtterance(''));
        setSoundBlocked(false);
      },
      handled: (id) => store.release(id),
      updates,
    }),
    [pending, state, soundBlocked, store, updates],
  );
  return (
    <LiveAlarmsContext.Provider value={value}>
      <LiveVitalsContext.Provider value={vitals}>{children}</LiveVitalsContext.Provider>
    </LiveAlarmsContext.Provider>
  );
};

/** The "enable sound" prompt: a night shift must never sit in front of a silent console. */
export const SoundPrompt = () => {
  const { t } = useTranslation();
  const { soundBlocked, enableSound } = useLiveAlarms();
  if (!soundBlocked) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="sound-prompt"
      message={t('live.soundBlocked')}
      action={
        <Button size="small" type="primary" onClick={enableSound} data-testid="sound-enable">
          {t('live.enableSound')}
        </Button>
      }
    />
  );
};
