import { residentLive } from '@vigil/contract/browser';
import { Button, Card, Col, Result, Row, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api/client.ts';
import { useLiveResidents } from '../../shared/live/live-vitals.tsx';
import { useCall } from '../../shared/api/use-call.ts';
import { alarmMarks, RESIDENT_LIST_PATH } from './live-model.ts';
import { ResidentDevices } from './ResidentDevices.tsx';
import { ResidentHeader } from './ResidentHeader.tsx';
import { TodayAlarms } from './TodayAlarms.tsx';
import { useFocusToggle } from './useFocusToggle.ts';
import { useVitalsTrail } from './useVitalsTrail.ts';
import { VitalsChart } from './VitalsChart.tsx';
import { vitalsChartOption } from './vitals-chart-option.ts';
import { chartPoints } from './vitals-trail.ts';

const HEART = '#f5222d';
const BREATH = '#1677ff';

const userIdOf = (value: string | null): number | undefined =>
  value !== null && /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= 2_147_483_647
    ? Number(value)
    : undefined;

const BackToList = () => {
  const { t } = useTranslation('real-monitor');
  return (
    <Link to={RESIDENT_LIST_PATH}>
      <Button>{t('focus.allResidents')}</Button>
    </Link>
  );
};

/** One resident, live: header, the last hour and the live samples charted, devices and today's alarms. */
const ResidentLive = ({ userId }: { userId: number }) => {
  const { t } = useTranslation('real-monitor');
  const live = useCall(residentLive, { userId });
  const rows = useMemo(() => (live.data ? [live.data.resident] : undefined), [live.data]);
  const [resident] = useLiveResidents(rows, live.dataUpdatedAt);
  const trail = useVitalsTrail(userId);
  const { toggle, changing } = useFocusToggle();
  const history = live.data?.history;

  const limits = live.data?.limits;
  const alarms = live.data?.alarmsToday;
  const heart = useMemo(
    () =>
      vitalsChartOption({
        rate: 'heartRate',
        name: t('vital.heartRate'),
        unit: t('unit.bpm'),
        colour: HEART,
        points: chartPoints(history ?? [], trail, 'heartRate'),
        nowMs: Date.now(),
        limits: limits ? { low: limits.heartMin, high: limits.heartMax } : null,
        alarms: alarmMarks(alarms ?? [], 'heartRate'),
      }),
    [history, trail, limits, alarms, t],
  );
  const breath = useMemo(
    () =>
      vitalsChartOption({
        rate: 'breathRate',
        name: t('vital.breathRate'),
        unit: t('unit.rpm'),
        colour: BREATH,
        points: chartPoints(history ?? [], trail, 'breathRate'),
        nowMs: Date.now(),
        limits: limits ? { low: limits.breathMin, high: limits.breathMax } : null,
        alarms: alarmMarks(alarms ?? [], 'breathRate'),
      }),
    [history, trail, limits, alarms, t],
  );

  if (live.isPending) return <Spin data-testid="resident-loading" />;
  if (!live.data || !resident) {
    const reason = live.error instanceof ApiError ? live.error.message : t('common.unknownError');
    return <Result status="warning" title={t('resident.loadFailed')} subTitle={reason} extra={<BackToList />} />;
  }
  return (
    <div data-testid="resident-live">
      <ResidentHeader
        resident={resident}
        changingFocus={changing === userId}
        onFocus={() => toggle({ userId, focus: !resident.focus })}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('chart.heartRate')}>
            <VitalsChart option={heart} testId="heart-rate-chart" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('chart.breathRate')}>
            <VitalsChart option={breath} testId="breath-rate-chart" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('device.title')}>
            <ResidentDevices devices={live.data.devices} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('alarms.title')}>
            <TodayAlarms alarms={live.data.alarmsToday} />
          </Card>
        </Col>
      </Row>
    </div>
  );
};

/** A resident's live page (`/realMonitor/resident?userId=N`). */
const ResidentLivePage = () => {
  const { t } = useTranslation('real-monitor');
  const [params] = useSearchParams();
  const userId = userIdOf(params.get('userId'));
  if (userId === undefined) {
    return <Result status="404" title={t('resident.missing')} extra={<BackToList />} data-testid="resident-missing" />;
  }
  return <ResidentLive key={userId} userId={userId} />;
};

export default ResidentLivePage;
