import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import {
  dailyReport,
  dailyReportData,
  dailyReportPdf,
  timePeriod,
  type DailyReport,
  type EndpointResult,
} from '@vigil/contract/browser';
import { Alert, Button, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessageOf } from '../../shared/ui/list-state.tsx';
import { useCall } from '../../shared/api/use-call.ts';
import { MetricCards } from './MetricCards.tsx';
import { CurvesCard, HypnogramCard } from './NightCharts.tsx';
import { CoverageNotice, NightOverview } from './NightOverview.tsx';
import { addDays, clockTime, instantText, localParts, today } from './report-format.ts';
import { COMPUTING_POLL_MS } from './report-model.ts';
import { dailyDetailPath, dailyListPath, readNight, readUserId } from './report-paths.ts';
import { BackToReportList, PdfButton, ResidentBanner, StateTag } from './report-ui.tsx';
import { residentOf, useResidentWithoutReport } from './useChosenResident.ts';
import { useReportView, useSleepReportScope } from './view-state.ts';
import './sleep-report.css';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';

type Period = EndpointResult<typeof timePeriod>;

const UNKNOWN_STAGE = 255;

/** A report that is not (yet) there: being made, failed, or none for the night and when the next is due. */
const NoReport = (props: { report: DailyReport | null; night: string; period?: Period }) => {
  const { t } = useTranslation('sleep-report');
  const { report, night, period } = props;
  if (report?.state === 'computing') {
    return (
      <Alert
        type="info"
        showIcon
        icon={<Spin size="small" />}
        data-testid="report-computing"
        title={t('detail.computing')}
      />
    );
  }
  if (report?.state === 'failed') {
    return <Alert type="error" showIcon data-testid="report-failed" title={t('detail.failed')} />;
  }
  const nextNight = period ? localParts(Date.parse(period.nextReportAt), period.timeZone).date : null;
  const upcoming = nextNight !== null && night >= nextNight;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="report-none"
      title={t(upcoming ? 'detail.notYet' : 'detail.none', { date: night })}
      description={
        period &&
        t('detail.due', {
          time: instantText(period.nextReportAt, period.timeZone),
          sleep: period.sleepTime,
          wake: period.wakeTime,
        })
      }
    />
  );
};

const NightReport = ({ userId, night }: { userId: number; night: string }) => {
  const { t, i18n } = useTranslation('sleep-report');
  const navigate = useNavigate();
  const { selectedUserInfo } = useReportView();
  const report = useCall(
    dailyReport,
    { userId, date: night },
    // A report being made is asked for again until it is ready or has failed.
    { refetchInterval: (query) => (query.state.data?.state === 'computing' ? COMPUTING_POLL_MS : false) },
  );
  const period = useCall(timePeriod, { userId });
  const ready = report.data?.state === 'ready' && report.data.figures !== null;
  const curves = useCall(dailyReportData, { userId, date: night }, { enabled: ready });
  const timeZone = period.data?.timeZone;
  const withoutReport = useResidentWithoutReport(userId, report.data === null);
  const resident = residentOf(selectedUserInfo, userId, report.data?.resident) ?? withoutReport;
  const figures = report.data?.figures ?? null;

  // Back as far as the first report; forward as far as the night whose report is due next.
  const firstNight = period.data?.firstNight ?? null;
  const lastReachable = period.data ? localParts(Date.parse(period.data.nextReportAt), timeZone).date : today(timeZone);
  const go = (days: number) => void navigate(dailyDetailPath(userId, addDays(night, days)));

  const header = (
    <ResidentBanner
      resident={resident}
      extra={
        <>
          <RefusableButton
            icon={<LeftOutlined />}
            refusal={firstNight === null || night <= firstNight ? t('detail.noEarlier') : undefined}
            onClick={() => go(-1)}
            data-testid="night-previous"
          >
            {t('detail.previous')}
          </RefusableButton>
          <RefusableButton
            refusal={night >= lastReachable ? t('detail.noLater') : undefined}
            onClick={() => go(1)}
            data-testid="night-next"
          >
            {t('detail.next')}
            <RightOutlined />
          </RefusableButton>
          <PdfButton
            call={dailyReportPdf}
            input={{ userId, date: night, lang: i18n.language }}
            filename={`${resident?.userName ?? userId}-${night}.pdf`}
            refusal={ready ? undefined : t('action.pdfNotReady')}
          />
          <Button onClick={() => void navigate(dailyListPath(userId))} data-testid="open-daily-list">
            {t('action.dailyReports')}
          </Button>
        </>
      }
    >
      <div style={{ marginTop: 8 }}>
        <Typography.Title
          level={5}
          style={{ margin: 0, display: 'inline-block', marginInlineEnd: 8 }}
          data-testid="report-night"
        >
          {t('detail.night', { date: night })}
        </Typography.Title>
        {report.data && report.data.state !== 'ready' && <StateTag state={report.data.state} />}
      </div>
      {figures && (
        <Typography.Text type="secondary" data-testid="report-window">
          {t('detail.window', {
            start: clockTime(figures.windowStart, timeZone),
            end: clockTime(figures.windowEnd, timeZone),
          })}
          {report.data?.computeTime &&
            ` · ${t('detail.madeAt', { time: instantText(report.data.computeTime, timeZone) })}`}
        </Typography.Text>
      )}
    </ResidentBanner>
  );

  let body;
  if (report.isPending) body = <Spin data-testid="report-loading" />;
  else if (report.isError) {
    body = (
      <Result
        status="warning"
        title={t('detail.loadFailed')}
        subTitle={errorMessageOf(report.error, t('common.unknownError'))}
        extra={
          <Button type="primary" onClick={() => void report.refetch()}>
            {t('list.retry')}
          </Button>
        }
      />
    );
  } else if (!figures || !ready) {
    body = <NoReport report={report.data ?? null} night={night} period={period.data} />;
  } else {
    body = (
      <>
        <CoverageNotice figures={figures} />
        <NightOverview figures={figures} timeZone={timeZone} />
        <Typography.Title level={5}>{t('metrics.title')}</Typography.Title>
        <MetricCards figures={figures} />
        <div style={{ marginTop: 16 }}>
          {curves.isPending ? (
            <Spin />
          ) : curves.data ? (
            <>
              {curves.data.hypnogram.some((code) => code !== UNKNOWN_STAGE) && (
                <HypnogramCard data={curves.data} figures={figures} timeZone={timeZone} />
              )}
              <CurvesCard data={curves.data} timeZone={timeZone} />
            </>
          ) : null}
        </div>
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

/** One night's report (`/sleep-report/dailyDetails/reportDetails?userId=N&date=YYYY-MM-DD`). */
const DailyReportPage = () => {
  const { t } = useTranslation('sleep-report');
  useSleepReportScope();
  const [params] = useSearchParams();
  const userId = readUserId(params.get('userId'));
  const night = readNight(params.get('date'));
  return (
    <div data-testid="daily-report">
      <ScreenTitle route="dailyReportDetails" />
      {userId === undefined || night === undefined ? (
        <Result status="404" title={t('detail.missing')} extra={<BackToReportList />} />
      ) : (
        <NightReport key={`${userId}-${night}`} userId={userId} night={night} />
      )}
    </div>
  );
};

export default DailyReportPage;
