import { CONSTANTS, heGetDeviceList, heSubDeviceUnPair, isPlatformRole } from '@vigil/contract/browser';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { CommandHistoryDrawer } from './CommandHistoryDrawer.tsx';
import {
  isDeviceAdmin,
  LIVE_REFRESH_MS,
  type GatewayHostRow,
  type PairingReceipt,
  type SubDeviceRow,
} from './device-model.ts';
import { DeviceFormDialog } from './DeviceFormDialog.tsx';
import { DeviceSummary } from './DeviceSummary.tsx';
import { GatewayImports } from './GatewayImports.tsx';
import { scrollWidth } from './device-columns.tsx';
import { EXPAND_WIDTH, hostCards, hostColumns, subDeviceCards, subDeviceColumns } from './gateway-columns.tsx';
import { MoveHostDialog } from './MoveHostDialog.tsx';
import { PairingProgressDialog } from './PairingProgress.tsx';
import { PairSubDeviceDialog } from './PairSubDeviceDialog.tsx';
import { ReplaceDeviceDialog } from './ReplaceDeviceDialog.tsx';
import { useDeviceTypes } from './useDeviceTypes.ts';
import { useGatewayDelete } from './useGatewayActions.ts';
import { useProviderOptions } from './useProviderOptions.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import { ResponsiveTable } from '../../shared/ui/ResponsiveTable.tsx';
import { listSignalUnit } from '../../shared/ui/DeviceState.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';

/** A host holds fewer than 50 sub-devices (spec section 5). */
const MAX_SUB_DEVICES = CONSTANTS.maxSubDevicesPerGateway - 1;

interface HostFilters {
  keyWord?: string;
  online?: boolean;
  providerId?: number;
}
type OnlineChoice = 'online' | 'offline';
type OpenDialog =
  | { kind: 'addHost' }
  | { kind: 'edit' | 'move'; host: GatewayHostRow }
  | { kind: 'pair'; host: GatewayHostRow; sub?: SubDeviceRow }
  | { kind: 'progress'; receipt: PairingReceipt }
  | { kind: 'commands'; deviceId: string }
  | { kind: 'replace'; device: { deviceId: string; model: string }; host: boolean }
  | null;

/**
 * Gateway hosts with their sub-devices: add, pair and unpair (with the pairing's progress), replace,
 * delete, move between providers, each device's commands. Online state, last seen, battery and
 * signal refresh every LIVE_REFRESH_MS while the page is visible, keeping page and filters.
 */
export const GatewayHostList = () => {
  const { t } = useTranslation('devices');
  const { modal } = App.useApp();
  const session = useSession();
  const role = session.info?.role;
  const platform = role ? isPlatformRole(role) : false;
  const admin = isDeviceAdmin(role);
  const [filters, setFilters] = useState<HostFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const { types: subTypes } = useDeviceTypes(['security']);
  const providers = useProviderOptions(platform);
  const remove = useGatewayDelete();
  const queryClient = useQueryClient();
  const onError = useApiError();
  const unpair = useMutation({
    mutationFn: (input: { hostDeviceId: string; deviceId: string }) => api(heSubDeviceUnPair, input),
    onSuccess: (receipt) => {
      setDialog({ kind: 'progress', receipt });
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
    onError,
  });

  const filter = (change: HostFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };
  const list = useQuery({
    queryKey: ['devices', 'hosts', filters, page],
    queryFn: () => api(heGetDeviceList, { ...page, ...filters }),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_REFRESH_MS,
  });
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters({});
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const confirmDelete = (device: { deviceId: string; deviceType: number }, host: boolean) =>
    modal.confirm({
      title: t('common.delete'),
      content: t(host ? 'gateway.deleteHostConfirm' : 'gateway.deleteSubConfirm', { deviceId: device.deviceId }),
      okButtonProps: { danger: true },
      // The failure is shown by the mutation's onError; the dialog only needs to close.
      onOk: () =>
        remove.mutateAsync({ deviceId: device.deviceId, deviceType: device.deviceType }).catch(() => undefined),
    });

  const hostActions = (host: GatewayHostRow) => {
    const full = host.subDevices.length >= MAX_SUB_DEVICES;
    const hasSubs = host.subDevices.length > 0;
    return (
      <Space size={0} wrap>
        <RefusableButton
          type="link"
          size="small"
          refusal={full ? t('gateway.full', { max: MAX_SUB_DEVICES }) : null}
          data-testid={`pair-${host.deviceId}`}
          onClick={() => setDialog({ kind: 'pair', host })}
        >
          {t('gateway.pair')}
        </RefusableButton>
        <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', host })}>
          {t('common.edit')}
        </Button>
        <Button
          type="link"
          size="small"
          data-testid={`commands-${host.deviceId}`}
          onClick={() => setDialog({ kind: 'commands', deviceId: host.deviceId })}
        >
          {t('commands.action')}
        </Button>
        <Button type="link" size="small" onClick={() => setDialog({ kind: 'replace', device: host, host: true })}>
          {t('gateway.replace')}
        </Button>
        {admin && (
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'move', host })}>
            {t('gateway.move')}
          </Button>
        )}
        {/* The server refuses to delete a host with sub-devices (device.hasSubDevices). */}
        <RefusableButton
          type="link"
          size="small"
          danger
          refusal={hasSubs ? t('gateway.deleteHasSubs', { count: host.subDevices.length }) : null}
          onClick={() => confirmDelete(host, true)}
        >
          {t('common.delete')}
        </RefusableButton>
      </Space>
    );
  };
  const confirmUnpair = (host: GatewayHostRow, sub: SubDeviceRow) =>
    modal.confirm({
      title: t('gateway.unpair'),
      content: t('gateway.unpairConfirm', { deviceId: sub.deviceId, host: host.deviceId }),
      onOk: () => unpair.mutateAsync({ hostDeviceId: host.deviceId, deviceId: sub.deviceId }).catch(() => undefined),
    });
  const subActions = (host: GatewayHostRow) => (sub: SubDeviceRow) => (
    <Space size={0} wrap>
      {sub.paired ? (
        <Button
          type="link"
          size="small"
          data-testid={`unpair-${sub.deviceId}`}
          onClick={() => confirmUnpair(host, sub)}
        >
          {t('gateway.unpair')}
        </Button>
      ) : (
        <Button
          type="link"
          size="small"
          data-testid={`pair-sub-${sub.deviceId}`}
          onClick={() => setDialog({ kind: 'pair', host, sub })}
        >
          {t('gateway.pairSub')}
        </Button>
      )}
      <Button
        type="link"
        size="small"
        data-testid={`commands-${sub.deviceId}`}
        onClick={() => setDialog({ kind: 'commands', deviceId: sub.deviceId })}
      >
        {t('commands.action')}
      </Button>
      <Button type="link" size="small" onClick={() => setDialog({ kind: 'replace', device: sub, host: false })}>
        {t('gateway.replace')}
      </Button>
      <Button type="link" size="small" danger onClick={() => confirmDelete(sub, false)}>
        {t('common.delete')}
      </Button>
    </Space>
  );

  const columns = hostColumns({
    t,
    showProvider: platform,
    maxSubDevices: MAX_SUB_DEVICES,
    actions: hostActions,
    signalUnit: listSignalUnit(list.data?.rows ?? []),
  });
  const close = () => setDialog(null);
  return (
    <div>
      <DeviceSummary group="gateway" providerId={filters.providerId} />
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="host-search"
          allowClear
          placeholder={t('gateway.keyword')}
          enterButton={t('common.search')}
          style={{ width: 360 }}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        <Select<OnlineChoice>
          data-testid="host-filter-online"
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
        {platform && (
          <Select<number>
            data-testid="host-filter-provider"
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
        <Button type="primary" data-testid="host-add" onClick={() => setDialog({ kind: 'addHost' })}>
          {t('gateway.addHost')}
        </Button>
        <GatewayImports providerId={filters.providerId} needsProvider={platform} />
      </Space>
      <PagedTable<GatewayHostRow>
        data-testid="host-table"
        rowKey="id"
        size="middle"
        query={list}
        filters={{ filtered, onClearFilters: clearFilters }}
        columns={columns}
        cards={hostCards(t, platform)}
        scroll={{ x: scrollWidth(columns, EXPAND_WIDTH) }}
        // Only a new page or filter shows the spinner; the periodic refresh updates the rows in place.
        loading={list.isPending || list.isPlaceholderData}
        dataSource={list.data?.rows ?? []}
        expandable={{
          rowExpandable: (host) => host.subDevices.length > 0,
          expandedRowRender: (host) => (
            <ResponsiveTable<SubDeviceRow>
              data-testid={`subs-${host.deviceId}`}
              rowKey="id"
              size="small"
              pagination={false}
              columns={subDeviceColumns({
                t,
                actions: subActions(host),
                signalUnit: listSignalUnit(host.subDevices),
              })}
              cards={subDeviceCards(t)}
              dataSource={host.subDevices}
            />
          ),
        }}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      {dialog?.kind === 'addHost' && (
        <DeviceFormDialog
          gatewayHost
          types={[]}
          chooseProvider={platform}
          defaultProviderId={filters.providerId}
          onClose={close}
        />
      )}
      {dialog?.kind === 'edit' && (
        <DeviceFormDialog gatewayHost device={dialog.host} types={[]} chooseProvider={false} onClose={close} />
      )}
      {dialog?.kind === 'pair' && (
        <PairSubDeviceDialog
          host={dialog.host}
          sub={dialog.sub}
          types={subTypes}
          maxSubDevices={MAX_SUB_DEVICES}
          onClose={close}
        />
      )}
      {dialog?.kind === 'progress' && <PairingProgressDialog receipt={dialog.receipt} onClose={close} />}
      {dialog?.kind === 'commands' && <CommandHistoryDrawer deviceId={dialog.deviceId} onClose={close} />}
      {dialog?.kind === 'replace' && <ReplaceDeviceDialog device={dialog.device} host={dialog.host} onClose={close} />}
      {dialog?.kind === 'move' && <MoveHostDialog host={dialog.host} onClose={close} />}
    </div>
  );
};
