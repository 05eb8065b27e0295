import type { AlarmRecord } from '@vigil/contract/browser';
import { LineChartOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { residentLivePath } from './alarm-links.ts';

/**
 * What an alarm says beyond its text (issue 29, point 4; decision 0036): the figure that raised
 * it, who and where, how long ago it was raised (ticking), and the way to the resident's live
 * chart. Shared by the live cards, the popups, the handling dialog and the alarm log.
 */

/** One clock for every reader of the time since an alarm: one timer, whatever the number of cards. */
const ticker = (() => {
  const listeners = new Set<() => void>();
  let now = Math.floor(Date.now() / 1000);
  let timer: number | undefined;
  return {
    now: () => now,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      if (timer === undefined) {
        now = Math.floor(Date.now() / 1000);
        timer = window.setInterval(() => {
          now = Math.floor(Date.now() / 1000);
          for (const l of listeners) l();
        }, 1000);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size || timer === undefined) return;
        window.clearInterval(timer);
        timer = undefined;
      };
    },
  };
})();

/** Now in Unix seconds, moving on once a second while anything shows it. */
export const useNowSeconds = (): number => useSyncExternalStore(ticker.subscribe, ticker.now);

/** "45 s", "3 min 5 s", "1 h 12 min": a span of time as the live screens write it. */
export const spanText = (seconds: number, t: TFunction): string => {
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return t('live.span.hoursMinutes', { h, min });
  if (min) return t('live.span.minutesSeconds', { min, s });
  return t('live.span.seconds', { s });
};

/** "3 min 5 s ago", ticking. */
export const ElapsedSince = ({ since }: { since: number }) => {
  const { t } = useTranslation();
  const now = useNowSeconds();
  return (
    <span data-testid="alarm-elapsed" className="alarm-elapsed">
      {t('live.ago', { time: spanText(Math.max(0, now - since), t) })}
    </span>
  );
};

/** "Margaret Ellis · 101 A": the resident and the room and bed, kept apart; null when the alarm names neither. */
export const whoAndWhere = (alarm: Pick<AlarmRecord, 'userName' | 'room' | 'bunk'>): string | null => {
  const where = [alarm.room, alarm.bunk].filter((p): p is string => Boolean(p)).join(' ');
  return [alarm.userName, where].filter(Boolean).join(' · ') || null;
};

/**
 * The figure that raised the alarm, in the console's language ("heart rate 58 /min · below the
 * limit 75 · for 2 min"); nothing for an event alarm (a fall, a button), not even a separator.
 */
export const AlarmMeasure = ({
  alarm,
  strong = false,
}: {
  alarm: Pick<AlarmRecord, 'measureText' | 'alertLevel'>;
  strong?: boolean;
}) => {
  // An alarm kept in the browser by an older console has no figure yet.
  if (!alarm.measureText) return null;
  return (
    <Typography.Text
      data-testid="alarm-measure"
      strong={strong}
      type={strong && alarm.alertLevel === 1 ? 'danger' : undefined}
    >
      {alarm.measureText}
    </Typography.Text>
  );
};

/** The resident's live page (vitals and charts); nothing for an alarm of no resident. */
export const LiveChartLink = ({ userId, onClick }: { userId: number | null; onClick?: () => void }) => {
  const { t } = useTranslation();
  if (userId === null) return null;
  return (
    <Link to={residentLivePath(userId)} onClick={onClick} data-testid="alarm-live-chart">
      <LineChartOutlined /> {t('live.chart')}
    </Link>
  );
};
