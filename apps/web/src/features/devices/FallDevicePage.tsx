import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DeviceList } from './DeviceList.tsx';

/** Fall radars (ED719). */
const FallDevicePage = () => {
  const { t } = useTranslation('devices');
  return (
    <div>
      <Typography.Title level={4}>{t('menu.ed719')}</Typography.Title>
      <DeviceList group="fall" />
    </div>
  );
};
export default FallDevicePage;
