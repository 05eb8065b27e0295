import { DownOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Space, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { RefusableButton, refusedLabel } from '../../shared/ui/Refused.tsx';
import { placeOf } from './device-labels.ts';
import { ALG_MODE_KINDS, SENSOR_INIT_KINDS, type DeviceRow } from './device-model.ts';
import type { useDeviceActions } from './useDeviceActions.ts';

export type DeviceDialog = 'edit' | 'interval' | 'algMode' | 'initSensor' | 'commands';

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
              : refusedLabel(t('action.initSensor'), t('action.initSensorNeedsBed')),
          },
        ]
      : []),
    { key: 'commands', label: t('commands.action') },
    { key: 'sync', label: t('action.sync') },
    { type: 'divider' as const },
    {
      key: 'delete',
      danger: true,
      // The server refuses to delete a device on a bed: the resident would silently lose monitoring.
      disabled: linked,
      label: linked
        ? refusedLabel(t('common.delete'), t('action.deleteLinked', { bed: placeOf(device) ?? '' }))
        : t('common.delete'),
    },
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'sync') actions.sync.mutate(device.deviceId);
    else if (key === 'delete') confirmDelete();
    else props.onDialog(key as DeviceDialog);
  };

  return (
    // Longer languages wrap within the actions column's width rather than widen it.
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={() => props.onDialog('edit')}>
        {t('common.edit')}
      </Button>
      <RefusableButton
        type="link"
        size="small"
        refusal={device.online ? null : t('action.restartOffline')}
        onClick={confirmRestart}
      >
        {t('action.restart')}
      </RefusableButton>
      <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']}>
        <Button type="link" size="small" data-testid={`device-more-${device.deviceId}`}>
          {t('action.more')} <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );
};
