import { focusUsers, MONITOR_LIMITS } from '@vigil/contract/browser';
import { Button, Col, Empty, Row, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useLiveResidents } from '../../shared/live/live-vitals.tsx';
import { ListError } from '../../shared/ui/list-state.tsx';
import { FocusCard } from './FocusCard.tsx';
import { useCall } from '../../shared/api/use-call.ts';
import { RESIDENT_LIST_PATH, residentPath } from './live-model.ts';
import { useFocusToggle } from './useFocusToggle.ts';

/** The caller's focus residents as live cards, in the order they were added; a card opens the resident. */
export const FocusResidents = () => {
  const { t } = useTranslation('real-monitor');
  const navigate = useNavigate();
  const focus = useCall(focusUsers, {});
  const residents = useLiveResidents(focus.data?.rows, focus.dataUpdatedAt);
  const { toggle, changing } = useFocusToggle();

  const body = () => {
    if (focus.isPending) return <Spin />;
    if (focus.isError && !focus.data) return <ListError query={focus} />;
    if (residents.length === 0) {
      return (
        <Empty description={t('focus.empty')} data-testid="no-focus">
          <Link to={RESIDENT_LIST_PATH}>
            <Button type="primary">{t('focus.choose')}</Button>
          </Link>
        </Empty>
      );
    }
    return (
      <Row gutter={[12, 12]}>
        {residents.map((resident) => (
          <Col key={resident.userId} xs={24} sm={12} lg={8} xl={6} xxl={4}>
            <FocusCard
              resident={resident}
              removing={changing === resident.userId}
              onOpen={() => void navigate(residentPath(resident.userId))}
              onRemove={() => toggle({ userId: resident.userId, focus: false })}
            />
          </Col>
        ))}
      </Row>
    );
  };

  return (
    <section data-testid="focus-residents">
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('focus.title', { count: residents.length, max: MONITOR_LIMITS.maxFocus })}
        </Typography.Title>
        <Link to={RESIDENT_LIST_PATH}>{t('focus.allResidents')}</Link>
      </Space>
      {body()}
    </section>
  );
};
