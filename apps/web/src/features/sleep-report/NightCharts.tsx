import type { DailyReportData, NightFigures } from '@vigil/contract/browser';
import { Card, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { rateLimitsOf } from '../../shared/charts/limit-band.ts';
import { CHART_COLOURS, hypnogramOption, movementOption, nightCurveOption } from './report-charts.ts';
import { stageShares } from './report-format.ts';
import { ReportChart } from './ReportChart.tsx';
import { useReportFormat } from './useReportFormat.ts';

/** The night's stages as a hypnogram, with each stage's minutes and share. */
export const HypnogramCard = (props: { data: DailyReportData; figures: NightFigures; timeZone?: string }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  const { data, timeZone } = props;
  const option = useMemo(
    () =>
      hypnogramOption({
        data,
        windowStart: data.windowStart,
        windowEnd: data.windowEnd,
        timeZone,
        name: t('chart.hypnogram'),
        labels: {
          wake: t('stage.wake'),
          rem: t('stage.rem'),
          light: t('stage.light'),
          deep: t('stage.deep'),
          unknown: t('stage.unknown'),
        },
      }),
    [data, timeZone, t],
  );
  const stages = props.figures.stages;
  return (
    <Card size="small" title={t('chart.hypnogram')} style={{ marginBottom: 16 }} data-testid="report-hypnogram">
      {stages && (
        <Space wrap size={[8, 8]} data-testid="report-stage-shares">
          {stageShares(stages).map(({ stage, minutes, share }) => (
            <Tag key={stage} color={CHART_COLOURS.stage[stage]}>
              {t(`stage.${stage}`)}: {t('stage.share', { minutes, percent: format.percent(share) })}
            </Tag>
          ))}
        </Space>
      )}
      <ReportChart option={option} testId="hypnogram-chart" height={220} />
      <div className="sleep-report-explain">{t('chart.hypnogram.explain')}</div>
    </Card>
  );
};

/** Heart rate and breathing per minute with apnea events and times out of bed, then movement per minute. */
export const CurvesCard = (props: { data: DailyReportData; timeZone?: string }) => {
  const { t } = useTranslation('sleep-report');
  const { data, timeZone } = props;
  const [heart, breath, movement] = useMemo(() => {
    const spans = { apnea: t('chart.apnea'), outOfBed: t('chart.outOfBed') };
    return [
      nightCurveOption({
        ...data,
        timeZone,
        rate: 'heartRate',
        name: t('metric.heart'),
        unit: t('unit.bpm'),
        colour: CHART_COLOURS.heart,
        spans,
        legend: true,
        limits: rateLimitsOf(data.limits, 'heartRate'),
      }),
      nightCurveOption({
        ...data,
        timeZone,
        rate: 'breathRate',
        name: t('metric.breath'),
        unit: t('unit.rpm'),
        colour: CHART_COLOURS.breath,
        spans,
        legend: false,
        limits: rateLimitsOf(data.limits, 'breathRate'),
      }),
      movementOption({ ...data, timeZone, name: t('chart.movement'), unit: t('unit.movement') }),
    ];
  }, [data, timeZone, t]);
  return (
    <Card size="small" title={t('chart.vitals')} data-testid="report-curves">
      {data.minutes.length === 0 ? (
        <Typography.Text type="secondary">{t('chart.noData')}</Typography.Text>
      ) : (
        <>
          <Typography.Text strong>{t('metric.heart')}</Typography.Text>
          <ReportChart option={heart} testId="heart-chart" height={220} />
          <Typography.Text strong>{t('metric.breath')}</Typography.Text>
          <ReportChart option={breath} testId="breath-chart" height={180} />
          <Typography.Text strong>{t('chart.movement')}</Typography.Text>
          <ReportChart option={movement} testId="movement-chart" height={140} />
          <div className="sleep-report-explain">{t('chart.movement.explain')}</div>
        </>
      )}
    </Card>
  );
};
