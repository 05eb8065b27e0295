import type { NightFigures } from '@vigil/contract/browser';
import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ahiGrade, DASH } from './report-format.ts';
import { useReportFormat } from './useReportFormat.ts';

interface Metric {
  key: string;
  label: string;
  /** The value as written (parts kept whole when the line wraps); a dash when the data cannot support it. */
  value: string | string[];
  unit?: string;
  /** A second line under the value (grade, count, burden …), only when there is a value. */
  detail?: string;
  explain: string;
}

/** One figure: what it is called, its value, and a line on what it means and its usual range. */
const MetricCard = ({ metric }: { metric: Metric }) => (
  <Card size="small" className="sleep-report-metric" data-testid={`metric-${metric.key}`}>
    <Typography.Text type="secondary">{metric.label}</Typography.Text>
    <div className="sleep-report-metric-value" data-testid={`metric-${metric.key}-value`}>
      {Array.isArray(metric.value)
        ? metric.value.map((part, i) => (
            <span key={i} style={{ whiteSpace: 'nowrap' }}>
              {i > 0 && ' · '}
              {part}
            </span>
          ))
        : metric.value}
      {metric.unit && metric.value !== DASH && <span className="sleep-report-metric-unit">{metric.unit}</span>}
    </div>
    {metric.detail && metric.value !== DASH && <Typography.Text>{metric.detail}</Typography.Text>}
    <div className="sleep-report-explain">{metric.explain}</div>
  </Card>
);

/** The night's figures as cards, each explained; null figures are a dash, never 0. */
export const MetricCards = ({ figures }: { figures: NightFigures }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  const f = figures;
  const range = (r: NightFigures['heart']) =>
    r
      ? [
          t('range.min', { value: format.whole(r.min) }),
          t('range.avg', { value: format.whole(r.avg) }),
          t('range.max', { value: format.whole(r.max) }),
        ]
      : DASH;
  const metrics: Metric[] = [
    {
      key: 'totalSleep',
      label: t('metric.totalSleep'),
      value: format.duration(f.totalSleep),
      explain: t('metric.totalSleep.explain'),
    },
    {
      key: 'timeInBed',
      label: t('metric.timeInBed'),
      value: format.duration(f.timeInBed),
      explain: t('metric.timeInBed.explain'),
    },
    {
      key: 'efficiency',
      label: t('metric.efficiency'),
      value: format.percent(f.efficiency),
      explain: t('metric.efficiency.explain'),
    },
    {
      key: 'latency',
      label: t('metric.latency'),
      value: format.duration(f.latency),
      explain: t('metric.latency.explain'),
    },
    {
      key: 'deepShare',
      label: t('metric.deepShare'),
      value: format.percent(f.deepShare),
      explain: t('metric.deepShare.explain'),
    },
    {
      key: 'continuity',
      label: t('metric.continuity'),
      value: format.percent(f.continuity),
      explain: t('metric.continuity.explain'),
    },
    {
      key: 'awakenings',
      label: t('metric.awakenings'),
      value: format.whole(f.awakenings),
      explain: t('metric.awakenings.explain'),
    },
    {
      key: 'wakeAfterOnset',
      label: t('metric.wakeAfterOnset'),
      value: format.duration(f.wakeAfterOnset),
      explain: t('metric.wakeAfterOnset.explain'),
    },
    {
      key: 'movement',
      label: t('metric.movement'),
      value: format.number(f.movementPerHour),
      unit: t('unit.perHour'),
      explain: t('metric.movement.explain'),
    },
    {
      key: 'ahi',
      label: t('metric.ahi'),
      value: format.number(f.ahi),
      unit: t('unit.eventsPerHour'),
      detail:
        f.ahi === null
          ? undefined
          : [
              t(`ahiGrade.${ahiGrade(f.ahi)}`),
              f.apneaEvents === null ? null : t('metric.ahi.events', { count: f.apneaEvents }),
            ]
              .filter(Boolean)
              .join(' · '),
      explain: t('metric.ahi.explain'),
    },
    {
      key: 'leaveBed',
      label: t('metric.leaveBed'),
      value: f.leaveBedCount === null ? DASH : t('metric.leaveBed.value', { count: f.leaveBedCount }),
      detail:
        f.leaveBedSeconds === null
          ? undefined
          : t('metric.leaveBed.total', { duration: format.duration(f.leaveBedSeconds) }),
      explain: t('metric.leaveBed.explain'),
    },
    {
      key: 'hrv',
      label: t('metric.hrv'),
      value: f.hrv ? t('metric.hrv.value', { rmssd: format.whole(f.hrv.rmssd), sdnn: format.whole(f.hrv.sdnn) }) : DASH,
      explain: t('metric.hrv.explain'),
    },
    {
      key: 'heart',
      label: t('metric.heart'),
      value: range(f.heart),
      unit: t('unit.bpm'),
      explain: t('metric.heart.explain'),
    },
    {
      key: 'breath',
      label: t('metric.breath'),
      value: range(f.breath),
      unit: t('unit.rpm'),
      explain: t('metric.breath.explain'),
    },
    {
      key: 'af',
      label: t('metric.af'),
      value: f.af ? t(`af.${f.af.risk}`) : DASH,
      detail: f.af
        ? t('metric.af.burden', { burden: format.percent(f.af.burden), minutes: f.af.longestMinutes })
        : undefined,
      explain: t('metric.af.explain'),
    },
  ];
  return (
    <Row gutter={[12, 12]} data-testid="report-metrics">
      {metrics.map((metric) => (
        <Col key={metric.key} xs={24} sm={12} lg={8} xxl={6}>
          <MetricCard metric={metric} />
        </Col>
      ))}
    </Row>
  );
};
