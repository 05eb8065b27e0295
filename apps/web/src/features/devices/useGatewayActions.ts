import { heDeleteDevice } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { api } from '../../shared/api/client.ts';
import { useShowRemoval } from './useDeviceActions.ts';

/** Removing a gateway host (once it has no sub-devices) or a sub-device: it returns to stock. */
export const useGatewayDelete = () => {
  const onError = useApiError();
  const queryClient = useQueryClient();
  const showRemoval = useShowRemoval();
  return useMutation({
    mutationFn: (device: { deviceId: string; deviceType: number }) => api(heDeleteDevice, device),
    onSuccess: (outcome, device) => {
      showRemoval(device.deviceId, outcome);
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
    onError,
  });
};
