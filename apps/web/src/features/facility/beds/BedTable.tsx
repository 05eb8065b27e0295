import { BellOutlined, MoonOutlined } from '@ant-design/icons';
import { bunkCheckOut, deleteBunk, deviceTypeByCode, type DeviceKind } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Space, Typography, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../shared/api/client.ts';
import { ConfirmLink } from '../../../shared/ui/crud.tsx';
import { DeviceStateTags } from '../../../shared/ui/DeviceState.tsx';
import { RefusableButton } from '../../../shared/ui/Refused.tsx';
import { useApiError } from '../../../shared/ui/useApiError.ts';
import type { Bed } from '../facility-model.ts';
import { isOccupied, type OccupiedBed } from './BedSleepDialog.tsx';
import { PagedTable } from '../../../shared/ui/PagedTable.tsx';
import type { CardLayout } from '../../../shared/ui/ResponsiveTable.tsx';
import type { ListFilters, ListQuery } from '../../../shared/ui/list-state.tsx';

/** The bed alarm settings screen of a resident (route settingAlarm). */
const alarmSettingPath = (userId: number) => `/BunkManage/alarmSetting/${userId}`;

/** A bed holds sleep monitors and fall radars; an unknown code reads as a sleep monitor's. */
const kindOf = (code: number): DeviceKind => deviceTypeByCode(code)?.kind ?? 'sleep_monitor';

/** Why the server would refuse to delete the bed (place.service deleteBed): its resident, else its device. */
const deleteRefusal = (bed: Bed, t: TFunction): string | null => {
  if (bed.userId !== null) return t('refused.bedHasResident', { resident: bed.userName ?? '' });
  return bed.deviceId === null ? null : t('refused.bedHasDevice', { device: bed.deviceId });
};

export interface BedTableProps {
  beds: readonly Bed[];
  total: number;
  /** The list request: spinner on first load, its failure with a retry, stale rows marked. */
  query: ListQuery;
  filters: ListFilters;
  page: { pageNum: number; pageSize: number };
  showProvider: boolean;
  onPage: (pageNum: number, pageSize: number) => void;
  onEdit: (bed: Bed) => void;
  onChanged: () => void;
  /** Whether the signed-in role may change residents' sleep settings (the providers' own accounts). */
  maySetSleep: boolean;
  /** Opens the sleep settings of these beds' residents. */
  onSleep: (beds: OccupiedBed[]) => void;
  /** Beds chosen for settings in batch (only beds with a resident can be chosen). */
  rowSelection?: TableProps<Bed>['rowSelection'];
}

/**
 * Beds with path (and remark), mattress, device and resident; edit, check out, delete and the
 * per-bed settings (alarm rules on their own screen, sleep settings in a dialog).
 */
export const BedTable = (props: BedTableProps) => {
  const { t } = useTranslation('facility');
  const navigate = useNavigate();
  const onError = useApiError();
  const { message } = App.useApp();
  const done = (key: string) => () => {
    void message.success(t(key));
    props.onChanged();
  };
  const checkOut = useMutation({
    mutationFn: (userId: number) => api(bunkCheckOut, { userId }),
    onSuccess: done('feedback.checkedOut'),
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(deleteBunk, { id }),
    onSuccess: done('feedback.deleted'),
    onError,
  });

  const bedOf = (bed: Bed) => (
    <div>
      <Typography.Text strong>{bed.name}</Typography.Text>
      <br />
      <Typography.Text type="secondary">{`${bed.areaName} / ${bed.floorName} / ${bed.roomName}`}</Typography.Text>
      {bed.remark && (
        <Typography.Paragraph type="secondary" ellipsis={{ tooltip: bed.remark }} style={{ margin: 0, maxWidth: 220 }}>
          {bed.remark}
        </Typography.Paragraph>
      )}
    </div>
  );
  const columns: ColumnsType<Bed> = [
    { title: t('bed.name'), key: 'bed', render: (_, bed) => bedOf(bed) },
    { title: t('bed.mattress'), dataIndex: 'mattress', render: (m: Bed['mattress']) => t(`mattress.${m}`) },
    {
      title: t('bed.device'),
      key: 'device',
      // The device's state as the device list and the monitoring screens show it (decision 0034).
      render: (_, bed) =>
        bed.deviceId ? (
          <Space orientation="vertical" size={2} data-testid={`bed-device-${bed.deviceId}`}>
            <Typography.Text>{bed.deviceId}</Typography.Text>
            {bed.deviceState && bed.deviceType !== null && (
              <DeviceStateTags state={bed.deviceState} kind={kindOf(bed.deviceType)} maxWidth={190} />
            )}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('bed.noDevice')}</Typography.Text>
        ),
    },
    {
      title: t('bed.resident'),
      key: 'resident',
      render: (_, bed) => bed.userName ?? <Typography.Text type="secondary">{t('bed.free')}</Typography.Text>,
    },
    ...(props.showProvider ? [{ title: t('field.provider'), dataIndex: 'providerName' }] : []),
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, bed) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => props.onEdit(bed)}>
            {t('common.edit')}
          </Button>
          {bed.userId !== null && (
            <ConfirmLink
              label={t('bed.checkOut')}
              title={t('bed.checkOut')}
              content={t('bed.checkOutConfirm', { resident: bed.userName ?? '', bed: bed.name })}
              onOk={() => checkOut.mutateAsync(bed.userId ?? 0).catch(() => undefined)}
            />
          )}
          <ConfirmLink
            danger
            label={t('common.delete')}
            title={t('common.delete')}
            refusal={deleteRefusal(bed, t)}
            content={t('bed.deleteConfirm', { bed: bed.name })}
            onOk={() => remove.mutateAsync(bed.id).catch(() => undefined)}
          />
        </Space>
      ),
    },
    {
      title: t('settings.title'),
      key: 'settings',
      render: (_, bed) => (
        <Space size={0}>
          {/* The resident's own alarm rules: a link (new tab works too), opened in place on a plain click. */}
          <RefusableButton
            type="text"
            size="small"
            icon={<BellOutlined />}
            refusal={bed.userId === null ? t('settings.alarmNoResident') : undefined}
            href={bed.userId === null ? undefined : alarmSettingPath(bed.userId)}
            onClick={(event) => {
              if (bed.userId === null || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              void navigate(alarmSettingPath(bed.userId), {
                // Shown until the screen's own answer names them (the same path as the server's).
                state: {
                  userName: bed.userName,
                  bed: `${bed.areaName} / ${bed.floorName} / ${bed.roomName} / ${bed.name}`,
                },
              });
            }}
            title={bed.userId === null ? undefined : t('settings.alarm')}
            aria-label={t('settings.alarm')}
            data-testid="setting-alarm"
          />
          <RefusableButton
            type="text"
            size="small"
            icon={<MoonOutlined />}
            refusal={
              bed.userId === null
                ? t('settings.sleepNoResident')
                : props.maySetSleep
                  ? undefined
                  : t('settings.sleepProvidersOnly')
            }
            onClick={() => {
              if (isOccupied(bed)) props.onSleep([bed]);
            }}
            title={bed.userId === null || !props.maySetSleep ? undefined : t('settings.sleep')}
            aria-label={t('settings.sleep')}
            data-testid="setting-sleep"
          />
          {/* The spec's badge settings and electronic fence get their buttons here once their screens are built. */}
        </Space>
      ),
    },
  ];

  // On a phone a bed is a card: the bed and its place, its resident, its device and that device's state.
  const cards: CardLayout<Bed> = {
    title: bedOf,
    fields: ['resident', 'device', 'mattress', ...(props.showProvider ? ['providerName'] : [])],
    actions: ['actions', 'settings'],
  };

  return (
    <PagedTable<Bed>
      data-testid="bed-table"
      rowKey="id"
      size="middle"
      query={props.query}
      filters={props.filters}
      columns={columns}
      cards={cards}
      dataSource={[...props.beds]}
      {...(props.rowSelection ? { rowSelection: props.rowSelection } : {})}
      page={props.page}
      total={props.total}
      onPage={(page) => props.onPage(page.pageNum, page.pageSize)}
    />
  );
};
