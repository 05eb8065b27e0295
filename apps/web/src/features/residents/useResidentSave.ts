import { failureData, insertResident, updateResident } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { residentFields, type ResidentFormValues } from './resident-form.ts';

/**
 * Registers (no id) or edits a resident. A same-name refusal asks "continue?" and, if the user
 * agrees, sends the same request with confirm: true. Resolves true once saved, false when the
 * user declined; a refusal is the caller's to show (see useFormSubmit) and leaves the form as typed.
 */
export const useResidentSave = (id: number | undefined, onSaved: () => void) => {
  const { t } = useTranslation('residents');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: async (values: ResidentFormValues): Promise<boolean> => {
      const fields = residentFields(values);
      const send = (confirm: boolean) =>
        id === undefined
          ? api(insertResident, { ...fields, confirm })
          : api(updateResident, { id, ...fields, confirm });
      try {
        await send(false);
        return true;
      } catch (error) {
        if (!failureData(error, 'resident.sameName')) throw error;
        const agreed = await modal.confirm({
          title: t('sameName.title'),
          content: t('sameName.question', { name: fields.name }),
          okText: t('sameName.ok'),
          cancelText: t('common.cancel'),
        });
        if (!agreed) return false;
        await send(true);
        return true;
      }
    },
    onSuccess: (saved) => {
      if (!saved) return;
      void message.success(t(id === undefined ? 'edit.created' : 'edit.saved'));
      void queryClient.invalidateQueries({ queryKey: ['residents'] });
      onSaved();
    },
  });
};
