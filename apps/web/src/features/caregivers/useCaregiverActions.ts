import { deleteNursing, operateNursing, resetNursingPassword } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { api } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import type { CaregiverRow } from './caregiver-model.ts';
import { useCaregiverTexts } from './useCaregiverTexts.ts';
import { useShowAppCredentials } from './useShowAppCredentials.tsx';

/** The list's row actions: enable/disable, reset the app password, delete. */
export const useCaregiverActions = () => {
  const { t } = useCaregiverTexts();
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const showCredentials = useShowAppCredentials();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['caregivers'] });

  const setEnabled = useMutation({
    mutationFn: ({ row, enable }: { row: CaregiverRow; enable: boolean }) =>
      api(operateNursing, { id: row.id, type: enable ? 'enable' : 'disable' }),
    onSuccess: (_, { enable }) => {
      void message.success(t(enable ? 'list.enabledDone' : 'list.disabledDone'));
      void invalidate();
    },
    onError,
  });
  const resetPassword = useMutation({
    mutationFn: (row: CaregiverRow) => api(resetNursingPassword, { id: row.id }),
    onSuccess: (result, row) =>
      showCredentials({ name: row.name, userName: row.userName, password: result.initialPassword }, 'reset'),
    onError,
  });
  const remove = useMutation({
    mutationFn: (row: CaregiverRow) => api(deleteNursing, { id: row.id }),
    onSuccess: () => {
      void message.success(t('list.deletedDone'));
      void invalidate();
    },
    onError,
  });
  return { setEnabled, resetPassword, remove };
};
