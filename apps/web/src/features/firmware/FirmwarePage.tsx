import { firmwareDelete, firmwarePageList, firmwarePost, firmwareUpdate } from '@vigil/contract/browser';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { callKey } from '../../shared/api/use-call.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { FullReleaseDialog } from './FullReleaseDialog.tsx';
import {
  FIRMWARE_STATES,
  LIST_REFRESH_MS,
  PROGRESS_POLL_MS,
  actionsFor,
  deviceTypeOptions,
  formatSize,
  isMoving,
  shortMd5,
  type Firmware,
  type FirmwareState,
} from './firmware-model.ts';
import { DeviceTypeCell, FirmwareStateTag, RolloutSummary } from './firmware-ui.tsx';
import { ProgressDrawer } from './ProgressDrawer.tsx';
import { UploadDialog } from './UploadDialog.tsx';
import { WhitelistDrawer } from './WhitelistDrawer.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** What the list is narrowed to; every field travels to /firmware/pageList/get as is. */
interface FirmwareFilters {
  deviceType?: number;
  state?: FirmwareState;
  keyword?: string;
}

type Control = 'pause' | 'resume' | 'stop' | 'offline';

/** Sending a package to devices, and every control of its rollout, with the list reloaded after each. */
const useFirmwareActions = () => {
  const { t } = useTranslation('firmware');
  const { message, modal } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: [firmwarePageList.path] });

  const control = useMutation({
    mutationFn: (input: { id: number; action: Control }) => api(firmwareUpdate, input),
    onSuccess: (_, input) => {
      void message.success(t(`done.${input.action}`));
      void reload();
    },
    onError,
  });
  const grey = useMutation({
    mutationFn: (id: number) => api(firmwarePost, { id, release: 'grey' }),
    onSuccess: () => {
      void message.success(t('done.released'));
      void reload();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(firmwareDelete, { id }),
    onSuccess: () => {
      void message.success(t('done.deleted'));
      void reload();
    },
    onError,
  });

  const confirmGrey = (pkg: Firmware) =>
    modal.confirm({
      title: t('action.greyRelease'),
      content: t('confirm.grey', { version: pkg.version, count: pkg.greyCount }),
      okText: t('action.greyRelease'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'grey-release-ok' },
      onOk: () => grey.mutateAsync(pkg.id).catch(() => undefined),
    });
  /** Going on after the failures paused it opens the next stage: asked first. */
  const resume = (pkg: Firmware) => {
    const rollout = pkg.rollout;
    if (rollout?.pausedReason !== 'failures') {
      control.mutate({ id: pkg.id, action: 'resume' });
      return;
    }
    const last = rollout.stage >= rollout.stages.length - 1;
    modal.confirm({
      title: t('action.resume'),
      content: t(last ? 'confirm.resumeLast' : 'confirm.resumeNext', {
        stage: rollout.stage + 1,
        threshold: rollout.failureThreshold,
      }),
      okText: t('action.resume'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'resume-ok' },
      onOk: () => control.mutateAsync({ id: pkg.id, action: 'resume' }).catch(() => undefined),
    });
  };
  return { control, grey, remove, confirmGrey, resume, reload };
};
type FirmwareActions = ReturnType<typeof useFirmwareActions>;

/** Pause, resume and stop of a running or paused rollout. */
const RolloutControls = ({ pkg, actions }: { pkg: Firmware; actions: FirmwareActions }) => {
  const { t } = useTranslation('firmware');
  const can = actionsFor(pkg);
  const busy = actions.control.isPending;
  return (
    <>
      {can.pause && (
        <Button
          type="link"
          size="small"
          disabled={busy}
          data-testid={`firmware-pause-${pkg.id}`}
          onClick={() => actions.control.mutate({ id: pkg.id, action: 'pause' })}
        >
          {t('action.pause')}
        </Button>
      )}
      {can.resume && (
        <Button
          type="link"
          size="small"
          disabled={busy}
          data-testid={`firmware-resume-${pkg.id}`}
          onClick={() => actions.resume(pkg)}
        >
          {t('action.resume')}
        </Button>
      )}
      {can.stop && (
        <ConfirmLink
          danger
          label={t('action.stop')}
          title={t('action.stop')}
          content={t('confirm.stop', { version: pkg.version })}
          onOk={() => actions.control.mutateAsync({ id: pkg.id, action: 'stop' })}
        />
      )}
    </>
  );
};

const FirmwarePage = () => {
  const { t, i18n } = useTranslation('firmware');
  const actions = useFirmwareActions();
  const [filters, setFilters] = useState<FirmwareFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [uploading, setUploading] = useState(false);
  const [whitelistOf, setWhitelistOf] = useState<Firmware | null>(null);
  const [progressOf, setProgressOf] = useState<Firmware | null>(null);
  const [releasing, setReleasing] = useState<Firmware | null>(null);

  /** A narrower list may not have the current page, so every filter change starts at page 1. */
  const filter = (change: FirmwareFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    filter({ deviceType: undefined, state: undefined, keyword: undefined });
  };
  const filtered = Object.values(filters).some((value) => value !== undefined);

  const request = { ...page, ...filters };
  const list = useQuery({
    queryKey: callKey(firmwarePageList, request),
    queryFn: () => api(firmwarePageList, request),
    placeholderData: keepPreviousData,
    // The progress drawer's figures come from the list: every 5 s while its rollout moves; the
    // list alone refreshes more slowly while any rollout on the page does.
    refetchInterval: (query) => {
      const rows = query.state.data?.rows ?? [];
      const fresh = (pkg: Firmware | null) => (pkg ? (rows.find((r) => r.id === pkg.id) ?? pkg) : null);
      if (isMoving(fresh(progressOf)?.rollout ?? null)) return PROGRESS_POLL_MS;
      return rows.some((r) => isMoving(r.rollout)) ? LIST_REFRESH_MS : false;
    },
  });
  /** The package as the latest answer shows it (a drawer follows its rollout). */
  const latest = (pkg: Firmware | null): Firmware | null =>
    pkg ? (list.data?.rows.find((r) => r.id === pkg.id) ?? pkg) : null;

  const columns: ColumnsType<Firmware> = [
    {
      title: t('column.deviceType'),
      dataIndex: 'deviceType',
      render: (code: number) => <DeviceTypeCell code={code} />,
    },
    {
      title: t('column.version'),
      dataIndex: 'version',
      render: (version: string) => <Typography.Text strong>{version}</Typography.Text>,
    },
    {
      title: t('column.file'),
      key: 'file',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text ellipsis={{ tooltip: row.fileName }} style={{ maxWidth: 220 }}>
            {row.fileName}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatSize(t, row.size, i18n.language)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('column.md5'),
      dataIndex: 'md5',
      render: (md5: string) => (
        <Tooltip title={md5}>
          <Typography.Text
            copyable={{ text: md5, tooltips: [t('common.copy'), t('md5.copied')] }}
            style={{ fontFamily: 'monospace', fontSize: 12 }}
            data-testid="firmware-md5"
          >
            {shortMd5(md5)}
          </Typography.Text>
        </Tooltip>
      ),
    },
    {
      title: t('common.remark'),
      dataIndex: 'remark',
      render: (remark: string | null) =>
        remark ? (
          <Typography.Paragraph ellipsis={{ rows: 2, tooltip: remark }} style={{ maxWidth: 180, marginBottom: 0 }}>
            {remark}
          </Typography.Paragraph>
        ) : (
          '—'
        ),
    },
    {
      title: t('column.state'),
      dataIndex: 'state',
      render: (state: FirmwareState, row) => (
        <Space orientation="vertical" size={0}>
          <FirmwareStateTag state={state} />
          {row.releaseTime && state !== 'offline' && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatDateTime(row.releaseTime)}
            </Typography.Text>
          )}
          {row.offlineTime && state === 'offline' && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatDateTime(row.offlineTime)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('column.uploaded'),
      key: 'uploaded',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{formatDateTime(row.uploadTime)}</span>
          {row.uploadedBy && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.uploadedBy}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('column.release'),
      key: 'release',
      render: (_, row) => <RolloutSummary rollout={row.rollout} />,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      width: 230,
      render: (_, row) => {
        const can = actionsFor(row);
        return (
          // Longer languages wrap within the column's width rather than widen it.
          <Space size={0} wrap data-testid={`firmware-actions-${row.id}`}>
            <Button
              type="link"
              size="small"
              data-testid={`firmware-whitelist-${row.id}`}
              onClick={() => setWhitelistOf(row)}
            >
              {t('action.whitelist', { count: row.greyCount })}
            </Button>
            {can.grey && (
              <RefusableButton
                type="link"
                size="small"
                data-testid={`firmware-grey-${row.id}`}
                refusal={row.greyCount === 0 ? t('refusal.greyEmpty') : undefined}
                onClick={() => actions.confirmGrey(row)}
              >
                {t('action.greyRelease')}
              </RefusableButton>
            )}
            {can.full && (
              <Button
                type="link"
                size="small"
                data-testid={`firmware-full-${row.id}`}
                onClick={() => setReleasing(row)}
              >
                {t('action.fullRelease')}
              </Button>
            )}
            {can.progress && (
              <Button
                type="link"
                size="small"
                data-testid={`firmware-progress-${row.id}`}
                onClick={() => setProgressOf(row)}
              >
                {t('action.progress')}
              </Button>
            )}
            <RolloutControls pkg={row} actions={actions} />
            {can.offline && (
              <ConfirmLink
                danger
                label={t('action.offline')}
                title={t('action.offline')}
                content={t('confirm.offline', { version: row.version })}
                onOk={() => actions.control.mutateAsync({ id: row.id, action: 'offline' })}
              />
            )}
            {can.remove && (
              <ConfirmLink
                danger
                label={t('common.delete')}
                title={t('common.delete')}
                content={t('confirm.delete', { version: row.version, fileName: row.fileName })}
                onOk={() => actions.remove.mutateAsync(row.id)}
              />
            )}
          </Space>
        );
      },
    },
  ];

  const progressPkg = latest(progressOf);
  return (
    <div>
      <ScreenTitle route="hardSoftUpload" />
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Select<number>
          data-testid="firmware-filter-type"
          aria-label={t('column.deviceType')}
          placeholder={t('column.deviceType')}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 220 }}
          options={deviceTypeOptions(t)}
          onChange={(deviceType?: number) => filter({ deviceType })}
        />
        <Select<FirmwareState>
          data-testid="firmware-filter-state"
          aria-label={t('column.state')}
          placeholder={t('column.state')}
          allowClear
          style={{ minWidth: 150 }}
          options={FIRMWARE_STATES.map((state) => ({ value: state, label: t(`state.${state}`) }))}
          onChange={(state?: FirmwareState) => filter({ state })}
        />
        <Input.Search
          data-testid="firmware-search"
          allowClear
          maxLength={64}
          placeholder={t('filter.keyword')}
          enterButton={t('common.search')}
          onSearch={(value) => filter({ keyword: value.trim() || undefined })}
        />
        <Button type="primary" data-testid="firmware-upload" onClick={() => setUploading(true)}>
          {t('action.upload')}
        </Button>
      </Space>
      <PagedTable<Firmware>
        data-testid="firmware-table"
        rowKey="id"
        query={list}
        // Only a new page or filter shows the spinner; the periodic refresh updates the rows in place.
        loading={list.isPending || list.isPlaceholderData}
        filters={{ filtered, onClearFilters: clearFilters }}
        locale={{ emptyText: t('empty') }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      <UploadDialog open={uploading} onClose={() => setUploading(false)} onUploaded={() => void actions.reload()} />
      <FullReleaseDialog pkg={releasing} onClose={() => setReleasing(null)} onReleased={() => void actions.reload()} />
      <WhitelistDrawer
        key={`whitelist-${whitelistOf?.id ?? 0}`}
        pkg={latest(whitelistOf)}
        onClose={() => setWhitelistOf(null)}
        onChanged={() => void actions.reload()}
      />
      <ProgressDrawer
        key={`progress-${progressOf?.id ?? 0}`}
        pkg={progressPkg}
        onClose={() => setProgressOf(null)}
        controls={
          progressPkg && (
            <Space size={0}>
              <RolloutControls pkg={progressPkg} actions={actions} />
            </Space>
          )
        }
      />
    </div>
  );
};

export default FirmwarePage;
