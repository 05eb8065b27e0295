import { deviceTypeByCode, type LiveDevice } from '@vigil/contract/browser';
import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatSeconds } from '../alarm-log/alarm-model.ts';

/** The devices of the resident's bed and room: online or not, battery, last seen. */
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
      dataIndex: 'online',
      render: (online: boolean) => (
        <Tag color={online ? 'green' : 'default'}>{online ? t('device.isOnline') : t('device.isOffline')}</Tag>
      ),
    },
    {
      title: t('device.battery'),
      dataIndex: 'battery',
      align: 'right',
      render: (battery: number | null) => (battery === null ? '—' : `${battery}%`),
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
