import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { DeviceList } from './DeviceList.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/**
 * Security devices: the sensors (call buttons, door magnets, smoke, gas, CO, flood, infrared) and,
 * on their own tab, the wearables (badges, nurse watches), which the server groups apart.
 */
const SecurityDevicePage = () => {
  const { t } = useTranslation('devices');
  return (
    <div>
      <ScreenTitle route="safeDeviceManage" />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'security', label: t('page.securitySensors'), children: <DeviceList group="security" /> },
          { key: 'wearable', label: t('page.wearables'), children: <DeviceList group="wearable" /> },
        ]}
      />
    </div>
  );
};
export default SecurityDevicePage;
