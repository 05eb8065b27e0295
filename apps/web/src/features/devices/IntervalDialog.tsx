import { CONSTANTS } from '@vigil/contract/browser';
import { useTranslation } from 'react-i18next';
import { CommandNumberDialog } from './CommandNumberDialog.tsx';
import type { DeviceRow } from './device-model.ts';
import { useDeviceActions } from './useDeviceActions.ts';

const MIN = CONSTANTS.reportingIntervalMin;
const MAX = CONSTANTS.reportingIntervalMax;

/** Queues a new reporting interval (1 to 254 seconds) for a device. */
export const IntervalDialog = (props: {
  device: Pick<DeviceRow, 'deviceId' | 'reportInterval'>;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const { interval } = useDeviceActions();
  const { deviceId } = props.device;
  return (
    <CommandNumberDialog
      testId="interval-form"
      title={t('interval.title', { deviceId })}
      label={t('interval.label')}
      rule={t('interval.rule', { min: MIN, max: MAX })}
      min={MIN}
      max={MAX}
      initial={props.device.reportInterval}
      suffix={t('interval.seconds')}
      onSave={(value) => interval.mutateAsync({ deviceId, interval: value }).then(props.onClose)}
      onClose={props.onClose}
    />
  );
};
