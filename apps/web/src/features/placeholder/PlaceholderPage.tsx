import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';

/** Screens that later issues build: a clear page, never a broken route. */
export const PlaceholderPage = ({ name }: { name: string }) => {
  const { t } = useTranslation();
  return (
    <Card title={t(`menu.${name}`)} data-testid={`placeholder-${name}`}>
      <Empty description={t('placeholder.body')} />
    </Card>
  );
};
export default PlaceholderPage;
