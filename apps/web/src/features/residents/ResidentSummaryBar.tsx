import { residentSummary } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import type { ResidentState } from './resident-model.ts';

/**
 * Resident counts of the chosen provider. Clicking a state count narrows the list to that state.
 */
export const ResidentSummaryBar = (props: { onState: (state: ResidentState) => void }) => {
  const { t } = useTranslation('residents');
  const summary = useQuery({ queryKey: ['residents', 'summary'], queryFn: () => api(residentSummary, {}) });
  const s = summary.data;
  const stat = (key: string, title: string, value: number | string | undefined, onClick?: () => void) => (
    <Card
      key={key}
      size="small"
      hoverable={Boolean(onClick)}
      onClick={onClick}
      style={{ minWidth: 120, flex: '1 1 120px' }}
      data-testid={`summary-${key}`}
    >
      <Statistic title={title} value={value ?? '-'} loading={summary.isLoading} />
    </Card>
  );
  const states: ResidentState[] = ['registered', 'checkedIn', 'checkedOut', 'loggedOff'];
  return (
    <Flex gap={12} wrap style={{ marginBottom: 16 }} data-testid="resident-summary">
      {stat('total', t('summary.total'), s?.total)}
      {states.map((state) => stat(state, t(`state.${state}`), s?.byState[state], () => props.onState(state)))}
      {stat('away', t('summary.away'), s?.away)}
      {stat('priority', t('summary.priority'), s?.priority)}
      {stat('gender', t('summary.gender'), s ? `${s.male} / ${s.female}` : undefined)}
    </Flex>
  );
};
