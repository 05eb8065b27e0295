import type { NightFigures } from '@vigil/contract/browser';
import { Alert, Card, Col, Progress, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { clockTime, LOW_COVERAGE } from './report-format.ts';
import { RISK_HEX, SCORE_PARTS } from './report-model.ts';
import { RiskTag } from './report-ui.tsx';
import { useReportFormat } from './useReportFormat.ts';

/**
 * How much of the night the figures rest on; a night that cannot be scored says why instead of
 * a score, and a thinly covered one asks to be read with care.
 */
export const CoverageNotice = ({ figures }: { figures: NightFigures }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%', marginBottom: 16 }}>
      <Typography.Text data-testid="report-coverage">
        {t('coverage.line', {
          coverage: format.percent(figures.coverage),
          signal: format.percent(figures.signalCoverage),
        })}
      </Typography.Text>
      {figures.insufficient ? (
        <Alert
          type="warning"
          showIcon
          data-testid="report-insufficient"
          title={t(`insufficient.${figures.insufficient}`)}
          description={t('insufficient.note')}
        />
      ) : (
        figures.coverage < LOW_COVERAGE && (
          <Alert type="info" showIcon data-testid="report-low-coverage" title={t('coverage.low')} />
        )
      )}
    </Space>
  );
};

/** The score (0–100) with its five parts, each against its full marks. */
const ScoreCard = ({ figures }: { figures: NightFigures }) => {
  const { t } = useTranslation('sleep-report');
  const parts = figures.scoreParts;
  return (
    <Card size="small" title={t('score.title')} style={{ height: '100%' }} data-testid="report-score">
      {figures.score === null ? (
        <Typography.Text type="secondary">{t('score.none')}</Typography.Text>
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <div>
            <span className="sleep-report-score" data-testid="report-score-value">
              {figures.score}
            </span>{' '}
            <Typography.Text type="secondary">{t('score.outOf')}</Typography.Text>
          </div>
          {parts && (
            <div className="sleep-report-score-parts">
              {SCORE_PARTS.map(({ part, max }) => (
                <ScorePart key={part} label={t(`scorePart.${part}`)} points={parts[part]} max={max} />
              ))}
            </div>
          )}
          <div className="sleep-report-explain">{t('score.explain')}</div>
        </Space>
      )}
    </Card>
  );
};

const ScorePart = (props: { label: string; points: number; max: number }) => {
  const { t } = useTranslation('sleep-report');
  return (
    <>
      <Typography.Text>{props.label}</Typography.Text>
      <Progress percent={(props.points / props.max) * 100} showInfo={false} size="small" aria-label={props.label} />
      <Typography.Text type="secondary">{t('score.part', { points: props.points, max: props.max })}</Typography.Text>
    </>
  );
};

/** The risk grade and, as sentences, what raised it. */
const RiskCard = ({ figures }: { figures: NightFigures }) => {
  const { t } = useTranslation('sleep-report');
  const grade = figures.riskGrade;
  return (
    <Card
      size="small"
      title={t('risk.title')}
      style={{ height: '100%', borderTop: grade ? `3px solid ${RISK_HEX[grade]}` : undefined }}
      data-testid="report-risk"
    >
      {grade === null ? (
        <Typography.Text type="secondary">{t('risk.noGrade')}</Typography.Text>
      ) : (
        <Space orientation="vertical" size={8}>
          <RiskTag grade={grade} />
          {figures.riskReasons.length === 0 ? (
            <Typography.Text type="secondary">{t('risk.noReasons')}</Typography.Text>
          ) : (
            <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="report-risk-reasons">
              {figures.riskReasons.map((reason) => (
                <li key={reason}>{t(`riskReason.${reason}`)}</li>
              ))}
            </ul>
          )}
        </Space>
      )}
    </Card>
  );
};

/** Going to bed, falling asleep, waking and getting up, as clock times. */
const TimesCard = ({ figures, timeZone }: { figures: NightFigures; timeZone?: string }) => {
  const { t } = useTranslation('sleep-report');
  const times = [
    ['bedTime', figures.bedTime],
    ['sleepOnset', figures.sleepOnset],
    ['wakeTime', figures.wakeTime],
    ['getUpTime', figures.getUpTime],
  ] as const;
  return (
    <Card size="small" title={t('times.title')} style={{ height: '100%' }} data-testid="report-times">
      <div className="sleep-report-times">
        {times.map(([key, unix]) => (
          <div key={key}>
            <Typography.Text type="secondary">{t(`times.${key}`)}</Typography.Text>
            <div className="sleep-report-metric-value" data-testid={`time-${key}`}>
              {clockTime(unix, timeZone)}
            </div>
          </div>
        ))}
      </div>
    </Card>
  );
};

/** Score, risk grade and the night's times side by side on wide screens. */
export const NightOverview = ({ figures, timeZone }: { figures: NightFigures; timeZone?: string }) => (
  <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
    <Col xs={24} lg={8}>
      <ScoreCard figures={figures} />
    </Col>
    <Col xs={24} lg={8}>
      <RiskCard figures={figures} />
    </Col>
    <Col xs={24} lg={8}>
      <TimesCard figures={figures} timeZone={timeZone} />
    </Col>
  </Row>
);
