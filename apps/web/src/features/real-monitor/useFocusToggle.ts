import { addFocusUser, deleteFocusUser, MONITOR_LIMITS } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { reloadCalls } from '../../shared/api/use-call.ts';
import { FOCUS_TOUCHES } from './live-model.ts';

interface FocusChange {
  userId: number;
  /** true: add to the focus residents; false: remove. */
  focus: boolean;
}

/**
 * Adds a resident to the caller's focus residents or removes one, then reloads the monitoring
 * screens. With `focusCount` known, an addition beyond the limit is refused here; the server's
 * refusal (its localised message) is shown either way.
 */
export const useFocusToggle = (focusCount?: number) => {
  const { t } = useTranslation('real-monitor');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const onError = useApiError();
  const mutation = useMutation({
    mutationFn: ({ userId, focus }: FocusChange) =>
      focus ? api(addFocusUser, { userId }) : api(deleteFocusUser, { userId }),
    onSuccess: () => reloadCalls(queryClient, FOCUS_TOUCHES),
    onError,
  });
  const toggle = (change: FocusChange) => {
    if (mutation.isPending) return;
    if (change.focus && focusCount !== undefined && focusCount >= MONITOR_LIMITS.maxFocus) {
      void message.warning(t('focus.full', { max: MONITOR_LIMITS.maxFocus }));
      return;
    }
    mutation.mutate(change);
  };
  return { toggle, changing: mutation.isPending ? mutation.variables.userId : null };
};
