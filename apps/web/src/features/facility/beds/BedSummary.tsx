import { bunkSummary } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';

const COUNTS = ['total', 'occupied', 'free', 'withDevice', 'withoutDevice'] as const;

/** Bed counts of the provider (or of the platform's provider filter): total, occupied, free, with and without a device. */
export const BedSummary = ({ providerId }: { providerId: number | undefined }) => {
  const { t } = useTranslation('facility');
  const summary = useQuery({
    queryKey: ['facility', 'summary', providerId],
    queryFn: () => api(bunkSummary, { providerId }),
  });
  return (
    <Row gutter={[12, 12]} data-testid="bed-summary">
      {COUNTS.map((count) => (
        <Col key={count} flex="1 1 160px">
          <Card size="small">
            <Statistic title={t(`summary.${count}`)} value={summary.data?.[count] ?? 0} loading={summary.isLoading} />
          </Card>
        </Col>
      ))}
    </Row>
  );
};
