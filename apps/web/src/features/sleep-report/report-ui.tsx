import { DownloadOutlined } from '@ant-design/icons';
import type { Endpoint, EndpointRequest, NightSummary } from '@vigil/contract/browser';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { download } from '../../shared/api/client.ts';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import { saveFile } from '../../shared/ui/save-file.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { placeOf } from './report-format.ts';
import { REPORT_LIST_PATH } from './report-paths.ts';
import { RISK_COLOURS, STATE_COLOURS, type RiskGrade, type ReportState } from './report-model.ts';
import { useReportFormat } from './useReportFormat.ts';
import type { ChosenResident } from './view-state.ts';

export const RiskTag = ({ grade }: { grade: RiskGrade | null }) => {
  const { t } = useTranslation('sleep-report');
  return grade ? <Tag color={RISK_COLOURS[grade]}>{t(`risk.${grade}`)}</Tag> : null;
};

export const StateTag = ({ state }: { state: ReportState }) => {
  const { t } = useTranslation('sleep-report');
  return <Tag color={STATE_COLOURS[state]}>{t(`state.${state}`)}</Tag>;
};

/**
 * A night's score in a list: the score, or why there is none (being made, failed, or the reason
 * the data could not support one). A list with a state column says the state there, not twice.
 */
export const ScoreCell = (props: {
  night: Pick<NightSummary, 'state' | 'insufficient' | 'score'>;
  stateShown?: boolean;
}) => {
  const { t } = useTranslation('sleep-report');
  const { night } = props;
  if (night.state !== 'ready') return props.stateShown ? '—' : <StateTag state={night.state} />;
  if (night.insufficient) {
    return (
      <Typography.Text type="warning" title={t(`insufficient.${night.insufficient}`)}>
        {t(`insufficientShort.${night.insufficient}`)}
      </Typography.Text>
    );
  }
  return <Typography.Text strong>{night.score ?? '—'}</Typography.Text>;
};

/** Who the report is about: name, gender and age, where they sleep, the provider; actions on the right. */
export const ResidentBanner = (props: { resident: ChosenResident | null; extra?: ReactNode; children?: ReactNode }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  const { resident } = props;
  const details = resident
    ? [
        format.person(resident),
        placeOf(resident) ?? t('resident.noBed'),
        resident.providerName ? t('detail.provider', { name: resident.providerName }) : null,
      ].filter(Boolean)
    : [];
  return (
    <Card size="small" data-testid="report-resident" style={{ marginBottom: 16 }}>
      <div className="sleep-report-banner">
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {resident?.userName ?? '…'}
          </Typography.Title>
          {details.length > 0 && (
            <Typography.Text type="secondary" data-testid="report-resident-details">
              {details.join(' · ')}
            </Typography.Text>
          )}
          {props.children}
        </div>
        {props.extra && (
          <Space wrap size={8}>
            {props.extra}
          </Space>
        )}
      </div>
    </Card>
  );
};

/** Downloads a report as PDF (the server names the file); disabled with the reason while there is none. */
export const PdfButton = <E extends Endpoint>(props: {
  call: E;
  input: EndpointRequest<E>;
  filename: string;
  refusal?: string;
}) => {
  const { t } = useTranslation('sleep-report');
  const onError = useApiError();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      saveFile(await download(props.call, props.input), props.filename);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <RefusableButton
      icon={<DownloadOutlined />}
      loading={busy}
      refusal={props.refusal}
      onClick={() => void run()}
      data-testid="report-pdf"
    >
      {t('action.pdf')}
    </RefusableButton>
  );
};

/** Back to the report list (its page and filters kept). */
export const BackToReportList = () => {
  const { t } = useTranslation('sleep-report');
  return (
    <Link to={REPORT_LIST_PATH}>
      <Button data-testid="back-to-report-list">{t('resident.backToList')}</Button>
    </Link>
  );
};
