import { Alert, Checkbox, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGuardedAction } from '../../shared/ui/useGuardedAction.ts';
import type { DeviceRow } from './device-model.ts';
import { placeOf } from './device-labels.ts';
import { useDeviceActions } from './useDeviceActions.ts';
import { refusableOk } from '../../shared/ui/Refused.tsx';

/**
 * Queues the initialisation of an installed sleep sensor. The spec: "an installed sensor must be
 * initialised on an empty bed", so the user confirms nobody is on the bed before it is sent.
 */
export const InitSensorDialog = (props: {
  device: Pick<DeviceRow, 'deviceId' | 'areaName' | 'floorName' | 'roomName' | 'bunkName' | 'userName'>;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const [bedEmpty, setBedEmpty] = useState(false);
  const { initSensor } = useDeviceActions();
  const send = useGuardedAction(() => initSensor.mutateAsync(props.device.deviceId).then(props.onClose));
  return (
    <Modal
      open
      title={t('initSensor.title', { deviceId: props.device.deviceId })}
      okText={t('initSensor.submit')}
      cancelText={t('common.cancel')}
      {...refusableOk(bedEmpty ? undefined : t('initSensor.confirmFirst'))}
      confirmLoading={send.pending}
      onOk={send.run}
      onCancel={props.onClose}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('initSensor.emptyBedRule')} />
        <Typography.Text>{t('initSensor.bed', { bed: placeOf(props.device) ?? '—' })}</Typography.Text>
        {props.device.userName && (
          <Typography.Text type="secondary">
            {t('initSensor.resident', { name: props.device.userName })}
          </Typography.Text>
        )}
        <Checkbox checked={bedEmpty} onChange={(e) => setBedEmpty(e.target.checked)} data-testid="init-sensor-empty">
          {t('initSensor.confirmEmpty')}
        </Checkbox>
      </Space>
    </Modal>
  );
};
