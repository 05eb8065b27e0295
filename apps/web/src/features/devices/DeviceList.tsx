import { getDeviceList, isPlatformRole } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Input, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { AlgModeDialog } from './AlgModeDialog.tsx';
import { CommandHistoryDrawer } from './CommandHistoryDrawer.tsx';
import { deviceCards, deviceColumns, scrollWidth, UploadSwitch } from './device-columns.tsx';
import { typeOptions } from './device-labels.ts';
import {
  isDeviceAdmin,
  LIVE_REFRESH_MS,
  type DeviceFilters,
  type DeviceGroup,
  type DeviceRow,
} from './device-model.ts';
import { DeviceFormDialog } from './DeviceFormDialog.tsx';
import { DeviceRowActions, type DeviceDialog } from './DeviceRowActions.tsx';
import { DeviceSummary } from './DeviceSummary.tsx';
import { DeviceTransfer } from './DeviceTransfer.tsx';
import { InitSensorDialog } from './InitSensorDialog.tsx';
import { IntervalDialog } from './IntervalDialog.tsx';
import { PlaceFilter } from './PlaceFilter.tsx';
import { SyncAllButton } from './SyncAllButton.tsx';
import { useDeviceActions } from './useDeviceActions.ts';
import { useDeviceTypes } from './useDeviceTypes.ts';
import { useProviderOptions } from './useProviderOptions.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { listSignalUnit } from '../../shared/ui/DeviceState.tsx';

type OnlineChoice = 'online' | 'offline';
type OpenDialog = { kind: 'register' } | { kind: DeviceDialog; device: DeviceRow } | null;

/**
 * The device list of one group of kinds (sleep monitors, fall radars, security sensors …): counts,
 * filters, paging, and every action on a device. The device pages are thin wrappers around it.
 * Online state, last seen, battery, signal and firmware refresh every LIVE_REFRESH_MS while the
 * page is visible, keeping page, filters and any open dialog.
 */
export const DeviceList = (props: { group: DeviceGroup }) => {
  const { t } = useTranslation('devices');
  const session = useSession();
  const role = session.info?.role;
  const platform = role ? isPlatformRole(role) : false;
  const admin = isDeviceAdmin(role);
  const [filters, setFilters] = useState<DeviceFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const { types } = useDeviceTypes([props.group]);
  const providers = useProviderOptions(platform);
  const actions = useDeviceActions();

  /** A narrower list may not have the current page, so every filter change starts at page 1. */
  const filter = (change: DeviceFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const listFilters = useMemo(() => ({ kind: props.group, ...filters }), [props.group, filters]);
  const list = useQuery({
    queryKey: ['devices', 'list', listFilters, page],
    queryFn: () => api(getDeviceList, { ...page, ...listFilters }),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_REFRESH_MS,
  });
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters({});
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const columns = deviceColumns({
    t,
    group: props.group,
    showProvider: platform,
    signalUnit: listSignalUnit(list.data?.rows ?? []),
    uploadSwitch: admin
      ? (row) => (
          <UploadSwitch
            t={t}
            row={row}
            busy={actions.uploadData.isPending && actions.uploadData.variables?.deviceId === row.deviceId}
            onChange={(uploadData) => actions.uploadData.mutate({ deviceId: row.deviceId, uploadData })}
          />
        )
      : undefined,
    actions: (row) => (
      <DeviceRowActions device={row} actions={actions} onDialog={(kind) => setDialog({ kind, device: row })} />
    ),
  });

  const close = () => setDialog(null);
  return (
    <div>
      <DeviceSummary group={props.group} providerId={filters.providerId} />
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="device-search"
          allowClear
          placeholder={t('filter.keyword')}
          enterButton={t('common.search')}
          style={{ width: 360 }}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        <Select<OnlineChoice>
          data-testid="device-filter-online"
          aria-label={t('field.online')}
          placeholder={t('field.online')}
          allowClear
          style={{ minWidth: 120 }}
          options={[
            { value: 'online', label: t('state.online') },
            { value: 'offline', label: t('state.offline') },
          ]}
          onChange={(choice?: OnlineChoice) =>
            filter({ online: choice === undefined ? undefined : choice === 'online' })
          }
        />
        {types.length > 1 && (
          <Select<number>
            data-testid="device-filter-type"
            aria-label={t('field.type')}
            placeholder={t('field.type')}
            allowClear
            style={{ minWidth: 220 }}
            options={typeOptions(t, types)}
            onChange={(deviceType?: number) => filter({ deviceType })}
          />
        )}
        {platform && (
          <Select<number>
            data-testid="device-filter-provider"
            aria-label={t('field.provider')}
            placeholder={t('field.provider')}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ minWidth: 180 }}
            loading={providers.loading}
            options={providers.options}
            onChange={(providerId?: number) => filter({ providerId })}
          />
        )}
        <PlaceFilter unplaced data-testid="device-filter-place" onChange={filter} />
        <Button type="primary" data-testid="device-register" onClick={() => setDialog({ kind: 'register' })}>
          {t('action.register')}
        </Button>
        <DeviceTransfer filters={listFilters} providerId={filters.providerId} needsProvider={platform} />
        <SyncAllButton providerId={filters.providerId} />
      </Space>
      <PagedTable<DeviceRow>
        data-testid="device-table"
        rowKey="id"
        size="middle"
        query={list}
        filters={{ filtered, onClearFilters: clearFilters }}
        columns={columns}
        cards={deviceCards(t, props.group, platform)}
        scroll={{ x: scrollWidth(columns) }}
        // Only a new page or filter shows the spinner; the periodic refresh updates the rows in place.
        loading={list.isPending || list.isPlaceholderData}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      {dialog?.kind === 'register' && (
        <DeviceFormDialog
          types={types}
          chooseProvider={platform}
          defaultProviderId={filters.providerId}
          onClose={close}
        />
      )}
      {dialog?.kind === 'edit' && (
        <DeviceFormDialog device={dialog.device} types={types} chooseProvider={false} onClose={close} />
      )}
      {dialog?.kind === 'interval' && <IntervalDialog device={dialog.device} onClose={close} />}
      {dialog?.kind === 'algMode' && <AlgModeDialog device={dialog.device} onClose={close} />}
      {dialog?.kind === 'initSensor' && <InitSensorDialog device={dialog.device} onClose={close} />}
      {dialog?.kind === 'commands' && <CommandHistoryDrawer deviceId={dialog.device.deviceId} onClose={close} />}
    </div>
  );
};
