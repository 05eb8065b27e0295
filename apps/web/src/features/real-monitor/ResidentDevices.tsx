import { deviceTypeByCode, type LiveDevice } from '@vigil/contract/browser';
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { withUnit } from '../../shared/ui/column-title.tsx';
import {
  batteryFigure,
  DeviceStateTags,
  listSignalUnit,
  signalFigure,
  signalHeader,
} from '../../shared/ui/DeviceState.tsx';
import { ResponsiveTable, type CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
import { formatSeconds } from '../alarm-log/alarm-model.ts';

/**
 * The devices of the resident's bed and room: their state as the device list and the bed list
 * show it (online, installed, sensor; decision 0034), battery, signal and last seen; cards on a phone.
 */
export const ResidentDevices = ({ devices }: { devices: LiveDevice[] }) => {
  const { t } = useTranslation('real-monitor');
  const signalUnit = listSignalUnit(devices);
  const stateOf = (device: LiveDevice, maxWidth?: number) => (
    <DeviceStateTags
      state={device}
      kind={deviceTypeByCode(device.deviceType)?.kind ?? 'sleep_monitor'}
      {...(maxWidth ? { maxWidth } : {})}
    />
  );
  const columns: ColumnsType<LiveDevice> = [
    { title: t('device.id'), dataIndex: 'deviceId' },
    {
      title: t('device.type'),
      dataIndex: 'deviceType',
      render: (code: number) => deviceTypeByCode(code)?.model ?? String(code),
    },
    { title: t('device.online'), key: 'state', render: (_, device) => stateOf(device, 190) },
    {
      title: withUnit(t, t('device.battery'), '%'),
      dataIndex: 'battery',
      align: 'right',
      render: (battery: number | null) => batteryFigure(battery),
    },
    {
      title: signalHeader(t('device.signal'), signalUnit, (name, unit) => withUnit(t, name, unit)),
      dataIndex: 'signal',
      align: 'right',
      render: (_, device) => signalFigure(device.signal, device.signalUnit, signalUnit),
    },
    { title: t('device.lastSeen'), dataIndex: 'lastSeen', render: (seen: number | null) => formatSeconds(seen, '—') },
  ];
  const cards: CardLayout<LiveDevice> = {
    title: (device) => <Typography.Text strong>{device.deviceId}</Typography.Text>,
    state: (device) => stateOf(device),
    fields: ['deviceType', 'battery', 'signal', 'lastSeen'],
  };
  return (
    <ResponsiveTable<LiveDevice>
      rowKey="deviceId"
      size="small"
      data-testid="resident-devices"
      columns={columns}
      cards={cards}
      dataSource={devices}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('device.none') }}
    />
  );
};
