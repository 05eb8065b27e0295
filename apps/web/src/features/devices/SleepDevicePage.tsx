import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/session-store.ts';
import { isDeviceAdmin } from './device-model.ts';
import { DeviceList } from './DeviceList.tsx';
import { DeviceRegistry } from './DeviceRegistry.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** Sleep monitors; platform device administrators also keep the device registry here. */
const SleepDevicePage = () => {
  const { t } = useTranslation('devices');
  const admin = isDeviceAdmin(useSession().info?.role);
  return (
    <div>
      <ScreenTitle route="deviceManage" />
      {admin ? (
        <Tabs
          destroyOnHidden
          items={[
            { key: 'devices', label: t('page.sleepDevices'), children: <DeviceList group="sleep" /> },
            { key: 'registry', label: t('page.registry'), children: <DeviceRegistry /> },
          ]}
        />
      ) : (
        <DeviceList group="sleep" />
      )}
    </div>
  );
};
export default SleepDevicePage;
