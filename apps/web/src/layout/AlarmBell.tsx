import { BellOutlined } from '@ant-design/icons';
import { alarmLogUnDeal, alertFlag, type AlarmRecord } from '@vigil/contract/browser';
import { Badge, Button, Dropdown, Empty, Spin, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { levelTag } from '../features/alarm-log/alarm-model.ts';
import { useCall } from '../shared/api/use-call.ts';
import { handleAlarmPath } from '../shared/live/alarm-links.ts';

/** How often the bell asks what is pending (the live socket's frames reload it sooner). */
const ALERT_FLAG_REFRESH_MS = 60_000;
/** How many pending alarms the bell lists; the alarm log has them all. */
export const BELL_ROWS = 8;
const ALARM_LOG = '/alarm-log/alarmIndex';

/** "just now", "12 min ago", "1 h 5 min ago", "2 d ago": how long an alarm has waited. */
export const waitedText = (seconds: number, t: TFunction): string => {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  if (minutes < 1) return t('bell.justNow');
  if (minutes < 60) return t('bell.minutesAgo', { min: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('bell.hoursAgo', { h: hours, min: minutes % 60 });
  return t('bell.daysAgo', { d: Math.floor(hours / 24) });
};

/** Who and where, kept apart: "Margaret Ellis · 101 A"; the device when the alarm names no bed. */
const whoAndWhere = (alarm: AlarmRecord): string => {
  const place = [alarm.room, alarm.bunk].filter(Boolean).join(' ') || alarm.deviceId;
  return [alarm.userName, place].filter(Boolean).join(' · ');
};

/** The seconds clock of the open list: elapsed times move on while it stays open. */
const useNowSeconds = (): number => {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Math.floor(Date.now() / 1000)), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
};

/** The open bell: the pending alarms, level 1 first, newest first within a level. */
const BellList = ({ total, onPick }: { total: number; onPick: (path: string) => void }) => {
  const { t } = useTranslation(['translation', 'alarm-log']);
  const now = useNowSeconds();
  const list = useCall(alarmLogUnDeal, { pageNum: 1, pageSize: BELL_ROWS, orderBy: 'alertLevel', order: 'asc' });
  const body = () => {
    if (list.isPending) return <Spin size="small" style={{ display: 'block', margin: 16 }} />;
    if (list.isError) return <Typography.Text type="danger">{t('bell.error')}</Typography.Text>;
    if (!list.data.rows.length) {
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('bell.empty')} data-testid="bell-empty" />;
    }
    return (
      <ul className="alarm-bell-list">
        {list.data.rows.map((alarm) => {
          const level = levelTag(alarm.alertLevel, t);
          return (
            <li key={alarm.id}>
              <button
                type="button"
                className={`alarm-bell-item alarm-bell-level${alarm.alertLevel}`}
                data-testid={`bell-alarm-${alarm.id}`}
                onClick={() => onPick(handleAlarmPath(alarm.id))}
              >
                <span className="alarm-bell-head">
                  <Tag color={level.color}>{level.text}</Tag>
                  <Typography.Text strong ellipsis>
                    {t(`alarm-log:alarmType.${alarm.alertType}`)}
                  </Typography.Text>
                  <Typography.Text type="secondary" className="alarm-bell-waited">
                    {waitedText(now - alarm.timeStamp, t)}
                  </Typography.Text>
                </span>
                <Typography.Text type="secondary" ellipsis>
                  {whoAndWhere(alarm)}
                </Typography.Text>
              </button>
            </li>
          );
        })}
      </ul>
    );
  };
  return (
    <div className="alarm-bell-panel" data-testid="bell-panel">
      <Typography.Text strong className="alarm-bell-title">
        {t('bell.title', { count: total })}
      </Typography.Text>
      {body()}
      <Button type="link" block onClick={() => onPick(ALARM_LOG)} data-testid="bell-see-all">
        {t('bell.seeAll')}
      </Button>
    </div>
  );
};

/**
 * The top bar's bell (issue 29, point 12): how many alarms are pending, and a click lists them —
 * level, type, resident and place, how long each has waited — each opening its handling; the
 * alarm log has them all. Its list opens above the alarm popups, which sit below the top bar.
 */
export const AlarmBell = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const flag = useCall(alertFlag, {}, { refetchInterval: ALERT_FLAG_REFRESH_MS });
  const count = flag.data?.count ?? 0;
  const pick = (path: string) => {
    setOpen(false);
    void navigate(path);
  };
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      placement="bottomRight"
      // On a phone the bell is left of the middle: the list shifts to stay on screen, never flips off it.
      align={{ overflow: { adjustX: false, shiftX: true, adjustY: true } }}
      // Above the alarm popups (layout.css): a level 1 popup never covers the open list.
      classNames={{ root: 'alarm-bell-popup' }}
      popupRender={() => (
        <Suspense fallback={<Spin size="small" />}>{open && <BellList total={count} onPick={pick} />}</Suspense>
      )}
    >
      <Badge count={count} overflowCount={99} size="small" offset={[-6, 6]} data-testid="nav-bell" data-pending={count}>
        <Tooltip title={open ? undefined : t('navbar.alarms')}>
          <Button
            type="text"
            aria-label={t('bell.label', { count })}
            aria-haspopup="true"
            aria-expanded={open}
            icon={<BellOutlined />}
            data-testid="nav-alarms"
          />
        </Tooltip>
      </Badge>
    </Dropdown>
  );
};
