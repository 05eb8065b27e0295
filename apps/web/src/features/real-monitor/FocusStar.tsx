import { StarFilled, StarOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** The focus toggle of a resident: a filled star when they are a focus resident. */
export const FocusStar = (props: { userId: number; focus: boolean; loading: boolean; onToggle: () => void }) => {
  const { t } = useTranslation('real-monitor');
  const label = props.focus ? t('focus.remove') : t('focus.add');
  return (
    <Button
      type="text"
      size="small"
      aria-label={label}
      title={label}
      aria-pressed={props.focus}
      data-testid={`focus-toggle-${props.userId}`}
      loading={props.loading}
      icon={props.focus ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
      onClick={(event) => {
        event.stopPropagation();
        props.onToggle();
      }}
    />
  );
};
