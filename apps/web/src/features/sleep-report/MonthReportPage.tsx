import {
  monthReport,
  monthReportPdf,
  monthReportTimes,
  RISK_GRADES,
  type MonthReport,
  type NightSummary,
} from '@vigil/contract/browser';
import { Button, Card, Col, Empty, Result, Row, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessageOf } from '../../shared/ui/list-state.tsx';
import { useCall } from '../../shared/api/use-call.ts';
import { CHART_COLOURS, trendOption, type ReportChartOption } from './report-charts.ts';
import { DASH } from './report-format.ts';
import { RISK_COLOURS } from './report-model.ts';
import { dailyDetailPath, dailyListPath, monthPath, readMonth, readUserId } from './report-paths.ts';
import { ReportChart } from './ReportChart.tsx';
import { BackToReportList, PdfButton, ResidentBanner, RiskTag, ScoreCell } from './report-ui.tsx';
import { residentOf } from './useChosenResident.ts';
import { useReportFormat } from './useReportFormat.ts';
import { reportView, useReportView, useSleepReportScope } from './view-state.ts';
import './sleep-report.css';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

const NIGHTS_PAGE_SIZE = 10;

/** A night's figure when the night was scored; nights being made, failed or without a score have none. */
const scoredValue = (night: NightSummary, value: number | null): number | null =>
  night.state === 'ready' && !night.insufficient ? value : null;

const Averages = ({ report }: { report: MonthReport }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  const a = report.averages;
  const unit = (value: string, unitKey: string) => (value === DASH ? value : `${value} ${t(unitKey)}`);
  const items: [string, string, string][] = [
    ['score', t('score.title'), format.whole(a.score)],
    ['totalSleep', t('metric.totalSleep'), format.duration(a.totalSleep)],
    ['efficiency', t('metric.efficiency'), format.percent(a.efficiency)],
    ['deepShare', t('metric.deepShare'), format.percent(a.deepShare)],
    ['ahi', t('metric.ahi'), unit(format.number(a.ahi), 'unit.eventsPerHour')],
    ['heartAvg', t('metric.heart'), unit(format.whole(a.heartAvg), 'unit.bpm')],
    ['breathAvg', t('metric.breath'), unit(format.number(a.breathAvg), 'unit.rpm')],
    ['rmssd', t('month.rmssd'), unit(format.whole(a.rmssd), 'unit.ms')],
    ['movementPerHour', t('metric.movement'), unit(format.number(a.movementPerHour), 'unit.perHour')],
    ['leaveBedCount', t('month.leaveBedCount'), format.number(a.leaveBedCount)],
    ['awakenings', t('month.awakenings'), format.number(a.awakenings)],
  ];
  return (
    <Card size="small" title={t('month.averages')} style={{ height: '100%' }} data-testid="month-averages">
      <div className="sleep-report-times">
        {items.map(([key, label, value]) => (
          <div key={key} data-testid={`average-${key}`}>
            <Typography.Text type="secondary">{label}</Typography.Text>
            <div className="sleep-report-metric-value">{value}</div>
          </div>
        ))}
      </div>
    </Card>
  );
};

const RiskSummary = ({ report }: { report: MonthReport }) => {
  const { t } = useTranslation('sleep-report');
  return (
    <Card size="small" title={t('month.riskNights')} style={{ height: '100%' }} data-testid="month-risk">
      <Space wrap style={{ marginBottom: 16 }}>
        {RISK_GRADES.map((grade) => (
          <Tag key={grade} color={RISK_COLOURS[grade]} data-testid={`risk-nights-${grade}`}>
            {t(`risk.${grade}`)}: {report.riskNights[grade]}
          </Tag>
        ))}
      </Space>
      <Typography.Title level={5}>{t('month.reasons')}</Typography.Title>
      {report.riskReasons.length === 0 ? (
        <Typography.Text type="secondary">{t('month.noReasons')}</Typography.Text>
      ) : (
        <Table
          size="small"
          pagination={false}
          rowKey="reason"
          data-testid="month-reasons"
          dataSource={report.riskReasons}
          columns={[
            { title: t('month.reason'), dataIndex: 'reason', render: (reason: string) => t(`riskShort.${reason}`) },
            { title: t('month.reasonNights'), dataIndex: 'nights', align: 'right' },
          ]}
        />
      )}
    </Card>
  );
};

/** The month's figures night by night; a point opens its night. */
const Trends = ({ report, onPick }: { report: MonthReport; onPick: (night: string) => void }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  const charts = useMemo((): { key: string; title: string; option: ReportChartOption }[] => {
    const nights = report.nights.map((n) => n.night);
    const values = (pick: (n: NightSummary) => number | null) => report.nights.map((n) => scoredValue(n, pick(n)));
    return [
      {
        key: 'score',
        title: t('month.trendScore'),
        option: trendOption({
          nights,
          min: 0,
          max: 100,
          valueText: (v) => format.whole(v),
          lines: [
            { name: t('month.trendScore'), colour: CHART_COLOURS.score, unit: '', values: values((n) => n.score) },
          ],
        }),
      },
      {
        key: 'sleep',
        title: t('month.trendSleep'),
        option: trendOption({
          nights,
          min: 0,
          valueText: (v) => format.number(v),
          lines: [
            {
              name: t('month.trendSleep'),
              colour: CHART_COLOURS.sleep,
              unit: t('unit.hours'),
              values: values((n) => (n.totalSleep === null ? null : Math.round(n.totalSleep / 360) / 10)),
            },
          ],
        }),
      },
      {
        key: 'ahi',
        title: t('month.trendAhi'),
        option: trendOption({
          nights,
          min: 0,
          valueText: (v) => format.number(v),
          lines: [
            {
              name: t('month.trendAhi'),
              colour: CHART_COLOURS.ahi,
              unit: t('unit.eventsPerHour'),
              values: values((n) => n.ahi),
            },
          ],
        }),
      },
      {
        key: 'vitals',
        title: t('month.trendVitals'),
        option: trendOption({
          nights,
          valueText: (v) => format.number(v),
          lines: [
            {
              name: t('metric.heart'),
              colour: CHART_COLOURS.heart,
              unit: t('unit.bpm'),
              rate: 'heartRate',
              values: values((n) => n.heartAvg),
            },
            {
              name: t('metric.breath'),
              colour: CHART_COLOURS.breath,
              unit: t('unit.rpm'),
              rightAxis: true,
              rate: 'breathRate',
              values: values((n) => n.breathAvg),
            },
          ],
        }),
      },
    ];
  }, [report, t, format]);
  return (
    <>
      <div className="sleep-report-explain" style={{ marginBottom: 8 }}>
        {t('month.trendHint')}
      </div>
      <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
        {charts.map((chart) => (
          <Col key={chart.key} xs={24} xl={12}>
            <Card size="small" title={chart.title}>
              <ReportChart option={chart.option} testId={`trend-${chart.key}`} height={220} onPick={onPick} />
            </Card>
          </Col>
        ))}
      </Row>
    </>
  );
};

const NightsTable = ({ report, userId }: { report: MonthReport; userId: number }) => {
  const { t } = useTranslation('sleep-report');
  const navigate = useNavigate();
  const format = useReportFormat();
  const { selectedReportPage } = useReportView();
  const scored = (night: NightSummary, text: string) => (scoredValue(night, 0) === null ? DASH : text);
  const columns: ColumnsType<NightSummary> = [
    {
      title: t('column.night'),
      dataIndex: 'night',
      render: (night: string) => (
        <Link to={dailyDetailPath(userId, night)} onClick={(event) => event.stopPropagation()}>
          {night}
        </Link>
      ),
    },
    { title: t('column.score'), key: 'score', align: 'right', render: (_, n) => <ScoreCell night={n} /> },
    { title: t('column.totalSleep'), key: 'totalSleep', render: (_, n) => scored(n, format.duration(n.totalSleep)) },
    {
      title: t('column.efficiency'),
      key: 'efficiency',
      align: 'right',
      render: (_, n) => scored(n, format.percent(n.efficiency)),
    },
    { title: t('column.ahi'), key: 'ahi', align: 'right', render: (_, n) => scored(n, format.number(n.ahi)) },
    {
      title: t('column.heartAvg'),
      key: 'heartAvg',
      align: 'right',
      render: (_, n) => scored(n, n.heartAvg === null ? DASH : `${format.whole(n.heartAvg)} ${t('unit.bpm')}`),
    },
    { title: t('column.riskGrade'), key: 'riskGrade', render: (_, n) => <RiskTag grade={n.riskGrade} /> },
  ];
  return (
    <Card size="small" title={t('month.table')} data-testid="month-nights">
      <Table<NightSummary>
        className="sleep-report-clickable-rows"
        size="small"
        rowKey="night"
        scroll={{ x: 'max-content' }}
        columns={columns}
        dataSource={report.nights}
        pagination={{
          current: selectedReportPage,
          pageSize: NIGHTS_PAGE_SIZE,
          showSizeChanger: false,
          showTotal: (n) => t('common.total', { total: n }),
          onChange: (page) => reportView.update({ selectedReportPage: page }),
        }}
        onRow={(night) => ({ onClick: () => void navigate(dailyDetailPath(userId, night.night)) })}
      />
    </Card>
  );
};

const ResidentMonth = ({ userId, asked }: { userId: number; asked?: string }) => {
  const { t, i18n } = useTranslation('sleep-report');
  const navigate = useNavigate();
  const { selectedUserInfo } = useReportView();
  const times = useCall(monthReportTimes, { userId });
  const month = asked ?? times.data?.[0];
  const report = useCall(monthReport, { userId, month: month ?? '' }, { enabled: month !== undefined });
  const resident = residentOf(selectedUserInfo, userId, report.data?.resident);
  const months = [...new Set([...(asked ? [asked] : []), ...(times.data ?? [])])].sort().reverse();
  const open = (night: string) => void navigate(dailyDetailPath(userId, night));

  const header = (
    <ResidentBanner
      resident={resident}
      extra={
        <>
          <Select<string>
            data-testid="month-pick"
            aria-label={t('month.pick')}
            placeholder={t('month.pick')}
            value={month}
            loading={times.isFetching}
            style={{ minWidth: 130 }}
            options={months.map((m) => ({ value: m, label: m }))}
            onChange={(m) => {
              reportView.update({ selectedReportPage: 1 });
              void navigate(monthPath(userId, m), { replace: true });
            }}
          />
          {month && (
            <PdfButton
              call={monthReportPdf}
              input={{ userId, month, lang: i18n.language }}
              filename={`${resident?.userName ?? userId}-${month}.pdf`}
              refusal={report.data && report.data.nights.length > 0 ? undefined : t('action.pdfNotReady')}
            />
          )}
          <Button onClick={() => void navigate(dailyListPath(userId))} data-testid="open-daily-list">
            {t('action.dailyReports')}
          </Button>
        </>
      }
    >
      {month && (
        <div style={{ marginTop: 8 }}>
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="month-title">
            {t('month.title', { month })}
          </Typography.Title>
          {report.data && (
            <Typography.Text type="secondary" data-testid="month-nights-count">
              {t('month.nights', { scored: report.data.scoredNights, insufficient: report.data.insufficientNights })}
            </Typography.Text>
          )}
        </div>
      )}
    </ResidentBanner>
  );

  let body;
  if (times.isPending && !asked) body = <Spin />;
  else if (month === undefined) {
    body = times.isError ? (
      <Result
        status="warning"
        title={t('month.loadFailed')}
        subTitle={errorMessageOf(times.error, t('common.unknownError'))}
      />
    ) : (
      <Empty data-testid="month-none" description={t('month.none')} />
    );
  } else if (report.isPending) body = <Spin data-testid="month-loading" />;
  else if (report.isError) {
    body = (
      <Result
        status="warning"
        title={t('month.loadFailed')}
        subTitle={errorMessageOf(report.error, t('common.unknownError'))}
        extra={
          <Button type="primary" onClick={() => void report.refetch()}>
            {t('list.retry')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <>
        <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
          <Col xs={24} xl={14}>
            <Averages report={report.data} />
          </Col>
          <Col xs={24} xl={10}>
            <RiskSummary report={report.data} />
          </Col>
        </Row>
        {report.data.nights.length > 0 && <Trends report={report.data} onPick={open} />}
        <NightsTable report={report.data} userId={userId} />
      </>
    );
  }
  return (
    <>
      {header}
      {body}
    </>
  );
};

/** A resident's monthly report (`/sleep-report/monthDetails?userId=N&month=YYYY-MM`; no month: the newest). */
const MonthReportPage = () => {
  const { t } = useTranslation('sleep-report');
  useSleepReportScope();
  const [params] = useSearchParams();
  const userId = readUserId(params.get('userId'));
  const month = readMonth(params.get('month'));
  return (
    <div data-testid="month-report">
      <ScreenTitle route="monthReport" />
      {userId === undefined ? (
        <Result status="404" title={t('resident.missing')} extra={<BackToReportList />} />
      ) : (
        <ResidentMonth key={userId} userId={userId} asked={month} />
      )}
    </div>
  );
};

export default MonthReportPage;
