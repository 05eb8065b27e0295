import { getDeviceSummary } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { LIVE_REFRESH_MS, type DeviceGroup } from './device-model.ts';

/** Total, online and offline devices of one group (the page's kinds), for the provider filtered on; refreshed while visible. */
export const DeviceSummary = (props: { group: DeviceGroup; providerId?: number }) => {
  const { t } = useTranslation('devices');
  const summary = useQuery({
    queryKey: ['devices', 'summary', props.providerId ?? null],
    queryFn: () => api(getDeviceSummary, { providerId: props.providerId }),
    // Online and offline counts follow the devices, like the list below them.
    refetchInterval: LIVE_REFRESH_MS,
  });
  const counts = summary.data?.groups.find((g) => g.kind === props.group);
  const cards = [
    { key: 'total', label: t('summary.total'), value: counts?.total, color: undefined },
    { key: 'online', label: t('summary.online'), value: counts?.online, color: '#389e0d' },
    { key: 'offline', label: t('summary.offline'), value: counts?.offline, color: '#8c8c8c' },
  ];
  return (
    <Row gutter={12} style={{ marginBottom: 16 }} data-testid="device-summary">
      {cards.map((c) => (
        <Col key={c.key} xs={8} md={6} lg={4}>
          <Card size="small">
            <Statistic
              title={c.label}
              value={c.value ?? 0}
              loading={summary.isLoading}
              styles={c.color ? { content: { color: c.color } } : undefined}
              data-testid={`summary-${c.key}`}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
};
