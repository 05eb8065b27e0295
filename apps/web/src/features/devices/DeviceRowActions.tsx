import { DownOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Space, Tooltip, Typography, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { placeOf } from './device-labels.ts';
import { ALG_MODE_KINDS, SENSOR_INIT_KINDS, type DeviceRow } from './device-model.ts';
import type { useDeviceActions } from './useDeviceActions.ts';

/** A disabled menu entry says why underneath: a disabled item shows no tooltip. */
const withReason = (label: string, reason: string) => (
  <div style={{ maxWidth: 280 }}>
    <div>{label}</div>
    <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'normal' }}>
      {reason}
    </Typography.Text>
  </div>
);

export type DeviceDialog = 'edit' | 'interval' | 'algMode' | 'initSensor';

/**
 * What a user can do with one device. Reboot reaches only online devices and sensor initialisation
 * only a sensor installed on a bed, so those are disabled with the reason rather than refused later.
 */
export const DeviceRowActions = (props: {
  device: DeviceRow;
  actions: ReturnType<typeof useDeviceActions>;
  onDialog: (dialog: DeviceDialog) => void;
}) => {
  const { t } = useTranslation('devices');
  const { modal } = App.useApp();
  const { device, actions } = props;

  const confirmRestart = () =>
    modal.confirm({
      title: t('action.restart'),
      content: t('action.restartConfirm', { deviceId: device.deviceId }),
      // The failure is shown by the mutation's onError; the dialog only needs to close.
      onOk: () => actions.restart.mutateAsync(device.deviceId).catch(() => undefined),
    });
  const confirmDelete = () =>
    modal.confirm({
      title: t('common.delete'),
      content: t('action.deleteConfirm', { deviceId: device.deviceId }),
      okButtonProps: { danger: true },
      onOk: () => actions.remove.mutateAsync(device.deviceId).catch(() => undefined),
    });

  const linked = device.bunkId !== null;
  const canInit = linked;
  const items: MenuProps['items'] = [
    { key: 'interval', label: t('action.interval') },
    ...(ALG_MODE_KINDS.includes(device.kind) ? [{ key: 'algMode', label: t('action.algMode') }] : []),
    ...(SENSOR_INIT_KINDS.includes(device.kind)
      ? [
          {
            key: 'initSensor',
            disabled: !canInit,
            label: canInit
              ? t('action.initSensor')
              : withReason(t('action.initSensor'), t('action.initSensorNeedsBed')),
          },
        ]
      : []),
    { key: 'sync', label: t('action.sync') },
    { type: 'divider' as const },
    {
      key: 'delete',
      danger: true,
      // The server refuses to delete a device on a bed: the resident would silently lose monitoring.
      disabled: linked,
      label: linked
        ? withReason(t('common.delete'), t('action.deleteLinked', { bed: placeOf(device) ?? '' }))
        : t('common.delete'),
    },
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'sync') actions.sync.mutate(device.deviceId);
    else if (key === 'delete') confirmDelete();
    else props.onDialog(key as DeviceDialog);
  };

  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={() => props.onDialog('edit')}>
        {t('common.edit')}
      </Button>
      <Tooltip title={device.online ? undefined : t('action.restartOffline')}>
        <Button type="link" size="small" disabled={!device.online} onClick={confirmRestart}>
          {t('action.restart')}
        </Button>
      </Tooltip>
      <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']}>
        <Button type="link" size="small" data-testid={`device-more-${device.deviceId}`}>
          {t('action.more')} <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );
};
