import { alarmDealStatus, type AlarmRecord } from '@vigil/contract/browser';
import { Badge, Col, Divider, Empty, Row, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HandleAlarmDialog } from '../alarm-log/HandleAlarmDialog.tsx';
import { api } from '../../shared/api/client.ts';
import { HANDLE_PARAM } from '../../shared/live/alarm-links.ts';
import { useLiveAlarms } from '../../shared/live/LiveAlarms.tsx';
import { AlarmCard } from './AlarmCard.tsx';
import { RoomAlarms } from './RoomAlarms.tsx';
import { groupByRoom } from './room-groups.ts';
import { FocusResidents } from './FocusResidents.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

const STATE_BADGE = { open: 'success', connecting: 'processing', closed: 'error' } as const;
const LEVEL1_COLUMNS = { xs: 24, md: 12, xxl: 8 } as const;
const LEVEL2_COLUMNS = { xs: 24, sm: 12, lg: 8, xxl: 6 } as const;

/**
 * Real-time monitoring (`/realMonitor/index`): the pending alarms of the chosen provider as they
 * arrive on the live socket, level 1 first, each handled from its card; below them the caller's
 * focus residents, live.
 */
const RealMonitorPage = () => {
  const { t } = useTranslation('real-monitor');
  const { pending, state, handled } = useLiveAlarms();
  const [handling, setHandling] = useState<AlarmRecord | null>(null);
  // A popup's or the bell's Handle (`?handle=<id>`): that alarm's dialog. One not among the live
  // list (raised over an hour ago, or handled meanwhile) is asked of the server; the dialog says
  // so when it was handled already.
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get(HANDLE_PARAM));
  useEffect(() => {
    if (!asked) return;
    let cancelled = false;
    const show = (alarm: AlarmRecord | null) => {
      if (cancelled) return;
      if (alarm) setHandling(alarm);
      setParams(
        (current) => {
          current.delete(HANDLE_PARAM);
          return current;
        },
        { replace: true },
      );
    };
    const known = pending.find((a) => a.id === asked);
    if (known) show(known);
    else void api(alarmDealStatus, { id: asked }).then(show, () => show(null));
    return () => {
      cancelled = true;
    };
  }, [asked, pending, setParams]);
  const sections = [1, 2].map((level) => ({ level, alarms: pending.filter((a) => a.alertLevel === level) }));
  return (
    <div data-testid="real-monitor">
      <Space style={{ marginBottom: 16 }} wrap>
        <ScreenTitle route="RealTime" style={{ margin: 0 }} />
        <Badge status={STATE_BADGE[state]} text={t(`connection.${state}`)} data-testid="live-state" />
      </Space>
      {pending.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} data-testid="no-alarms" />
      ) : (
        sections.map(
          ({ level, alarms }) =>
            alarms.length > 0 && (
              <section key={level} data-testid={`alarms-level${level}`} style={{ marginBottom: 24 }}>
                <Typography.Title level={5}>{t(`section.level${level}`, { count: alarms.length })}</Typography.Title>
                <Row gutter={[12, 12]}>
                  {groupByRoom(alarms).map((entry) =>
                    entry.kind === 'alarm' ? (
                      // Level 1 cards are the larger ones: fewer to a row (decision 0036).
                      <Col key={entry.alarm.id} {...(level === 1 ? LEVEL1_COLUMNS : LEVEL2_COLUMNS)}>
                        <AlarmCard alarm={entry.alarm} onHandle={() => setHandling(entry.alarm)} />
                      </Col>
                    ) : (
                      <Col key={entry.key} span={24}>
                        <RoomAlarms
                          entry={entry}
                          columns={level === 1 ? LEVEL1_COLUMNS : LEVEL2_COLUMNS}
                          onHandle={setHandling}
                        />
                      </Col>
                    ),
                  )}
                </Row>
              </section>
            ),
        )
      )}
      <Divider />
      <FocusResidents />
      {handling && (
        <HandleAlarmDialog alarm={handling} onDone={() => handled(handling.id)} onClose={() => setHandling(null)} />
      )}
    </div>
  );
};

export default RealMonitorPage;
