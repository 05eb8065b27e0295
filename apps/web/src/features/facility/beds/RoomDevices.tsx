import { getDeviceList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { OnlineTag } from '../../../shared/ui/DeviceState.tsx';
import { listEmptyText, StaleNotice } from '../../../shared/ui/list-state.tsx';
import type { DeviceRow } from '../../devices/device-model.ts';
import { placeLines } from '../../devices/device-place.ts';

/** A room holds a few devices; more than this is a list for the device screens. */
const ROOM_DEVICES_MAX = 100;

/**
 * The devices of a room (decision 0046): those placed in it, at one of its beds, linked to its
 * beds, or worn by its residents, with where each is. The bed table keeps its own device link.
 */
export const RoomDevices = ({ roomId }: { roomId: number }) => {
  const { t } = useTranslation(['facility', 'devices']);
  const devices = useQuery({
    queryKey: ['devices', 'list', 'room', roomId],
    queryFn: () => api(getDeviceList, { pageNum: 1, pageSize: ROOM_DEVICES_MAX, roomId }),
  });
  const where = (row: DeviceRow) => {
    const place = placeLines(t, row);
    if (!place) return '—';
    // The room is the card's: say the bed, the wearer, or "in the room".
    if (row.placeKind === 'bed') return row.bunkName ?? '—';
    if (row.placeKind === 'resident') return place.main;
    return t('roomDevices.inRoom');
  };
  return (
    <Card size="small" title={t('roomDevices.title')} style={{ marginTop: 16 }} data-testid="room-devices">
      <StaleNotice query={devices} />
      <Table<DeviceRow>
        rowKey="id"
        size="small"
        pagination={false}
        loading={devices.isPending}
        dataSource={devices.data?.rows ?? []}
        locale={{ emptyText: listEmptyText(devices) ?? t('roomDevices.none') }}
        scroll={{ x: 520 }}
        columns={[
          {
            title: t('devices:field.deviceId'),
            key: 'device',
            render: (_, row) => (
              <span>
                <Typography.Text strong>{row.deviceId}</Typography.Text>
                {row.name ? <Typography.Text type="secondary">{` · ${row.name}`}</Typography.Text> : null}
              </span>
            ),
          },
          { title: t('devices:field.type'), key: 'kind', render: (_, row) => t(`devices:kind.${row.kind}`) },
          { title: t('roomDevices.where'), key: 'where', render: (_, row) => where(row) },
          { title: t('devices:field.online'), key: 'online', render: (_, row) => <OnlineTag online={row.online} /> },
        ]}
      />
    </Card>
  );
};
