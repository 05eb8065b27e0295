import { deviceTypeByCode, type LiveDevice } from '@vigil/contract/browser';
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { batteryText, DeviceStateTags, signalText } from '../../shared/ui/DeviceState.tsx';
import { formatSeconds } from '../alarm-log/alarm-model.ts';

/**
 * The devices of the resident's bed and room: their state as the device list and the bed list
 * show it (online, installed, sensor; decision 0034), battery, signal and last seen.
 */
export const ResidentDevices = ({ devices }: { devices: LiveDevice[] }) => {
  const { t } = useTranslation('real-monitor');
  const columns: ColumnsType<LiveDevice> = [
    { title: t('device.id'), dataIndex: 'deviceId' },
    {
      title: t('device.type'),
      dataIndex: 'deviceType',
      render: (code: number) => deviceTypeByCode(code)?.model ?? String(code),
    },
    {
      title: t('device.online'),
      key: 'state',
      render: (_, device) => (
        <DeviceStateTags
          state={device}
          kind={deviceTypeByCode(device.deviceType)?.kind ?? 'sleep_monitor'}
          maxWidth={190}
        />
      ),
    },
    {
      title: t('device.battery'),
      dataIndex: 'battery',
      align: 'right',
      render: (battery: number | null) => batteryText(battery),
    },
    {
      title: t('device.signal'),
      dataIndex: 'signal',
      align: 'right',
      render: (_, device) => signalText(device.signal, device.signalUnit),
    },
    { title: t('device.lastSeen'), dataIndex: 'lastSeen', render: (seen: number | null) => formatSeconds(seen, '—') },
  ];
  return (
    <Table<LiveDevice>
      rowKey="deviceId"
      size="small"
      data-testid="resident-devices"
      columns={columns}
      dataSource={devices}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('device.none') }}
    />
  );
};
