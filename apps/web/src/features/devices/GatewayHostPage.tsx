import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GatewayHostList } from './GatewayHostList.tsx';

/** Gateway hosts and the sub-devices paired with them. */
const GatewayHostPage = () => {
  const { t } = useTranslation('devices');
  return (
    <div>
      <Typography.Title level={4}>{t('menu.hostDevice')}</Typography.Title>
      <GatewayHostList />
    </div>
  );
};
export default GatewayHostPage;
