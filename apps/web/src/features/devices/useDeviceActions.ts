import {
  deleteDevice,
  forceInitSensor,
  isUploadData,
  restartDevice,
  syncThirdDevice,
  updateAlgMode,
  updateInterval,
  type EndpointResult,
} from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';

type Removal = EndpointResult<typeof deleteDevice>;

/**
 * How a removal went: the device is gone either way; only a failed removal of its operator
 * registration needs the user's attention (decision 0010).
 */
export const useShowRemoval = () => {
  const { message } = App.useApp();
  const { t } = useTranslation('devices');
  return (deviceId: string, outcome: Removal) => {
    if (outcome.telecom === 'failed') {
      void message.warning(t('action.deletedTelecomFailed', { deviceId, reason: outcome.telecomMsg ?? '' }));
    } else void message.success(t('action.deleted', { deviceId }));
  };
};

/**
 * The row actions of the device list. Commands (restart, interval, algorithm mode, sensor
 * initialisation) are queued by the server for the device gateway, so success says "queued".
 */
export const useDeviceActions = () => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const showRemoval = useShowRemoval();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['devices'] });
  const queued = (deviceId: string) => {
    void message.success(t('action.queued', { deviceId }));
    refresh();
  };

  const restart = useMutation({
    mutationFn: (deviceId: string) => api(restartDevice, { deviceId }),
    onSuccess: (_, deviceId) => queued(deviceId),
    onError,
  });
  const interval = useMutation({
    mutationFn: (input: { deviceId: string; interval: number }) => api(updateInterval, input),
    onSuccess: (_, input) => queued(input.deviceId),
    onError,
  });
  const algMode = useMutation({
    mutationFn: (input: { deviceId: string; algMode: number }) => api(updateAlgMode, input),
    onSuccess: (_, input) => queued(input.deviceId),
    onError,
  });
  const initSensor = useMutation({
    mutationFn: (deviceId: string) => api(forceInitSensor, { deviceId, emptyBed: true }),
    onSuccess: (_, deviceId) => queued(deviceId),
    onError,
  });
  const uploadData = useMutation({
    mutationFn: (input: { deviceId: string; uploadData: boolean }) => api(isUploadData, input),
    onSuccess: refresh,
    onError,
  });
  const sync = useMutation({
    mutationFn: (deviceId: string) => api(syncThirdDevice, { deviceId }),
    onSuccess: (result) => {
      void message.success(
        t('action.synced', { deviceId: result.deviceId, status: t(`telecomStatus.${result.thirdPartyStatus}`) }),
      );
      refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (deviceId: string) => api(deleteDevice, { deviceId }),
    onSuccess: (outcome, deviceId) => {
      showRemoval(deviceId, outcome);
      refresh();
    },
    onError,
  });
  return { restart, interval, algMode, initSensor, uploadData, sync, remove };
};
