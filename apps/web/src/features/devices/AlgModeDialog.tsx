import { useTranslation } from 'react-i18next';
import { CommandNumberDialog } from './CommandNumberDialog.tsx';
import { ALG_MODE_MAX, type DeviceRow } from './device-model.ts';
import { useDeviceActions } from './useDeviceActions.ts';

/** Queues an algorithm mode (0 to 255) for a sleep monitor or fall radar. */
export const AlgModeDialog = (props: { device: Pick<DeviceRow, 'deviceId' | 'algMode'>; onClose: () => void }) => {
  const { t } = useTranslation('devices');
  const { algMode } = useDeviceActions();
  const { deviceId } = props.device;
  return (
    <CommandNumberDialog
      testId="alg-mode-form"
      title={t('algMode.title', { deviceId })}
      label={t('algMode.label')}
      rule={t('algMode.rule', { max: ALG_MODE_MAX })}
      min={0}
      max={ALG_MODE_MAX}
      initial={props.device.algMode}
      onSave={(value) => algMode.mutateAsync({ deviceId, algMode: value }).then(props.onClose)}
      onClose={props.onClose}
    />
  );
};
