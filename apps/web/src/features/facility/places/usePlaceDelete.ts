import { deleteAreaById, deleteRoomById } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { useApiError } from '../../../shared/ui/useApiError.ts';
import type { PlaceAction } from './place-actions.ts';

type DeleteAction = Extract<PlaceAction, { kind: 'deleteArea' | 'deleteFloor' | 'deleteRoom' }>;

/**
 * Deletes an area, floor or room after a confirmation. The server refuses an area with floors, a
 * floor with rooms and a room with beds; its message is shown as it says it.
 */
export const usePlaceDelete = (onDeleted: () => void) => {
  const { t } = useTranslation('facility');
  const { modal } = App.useApp();
  const onError = useApiError();
  const remove = useMutation({
    mutationFn: (action: DeleteAction) =>
      action.kind === 'deleteRoom'
        ? api(deleteRoomById, { id: action.room.id })
        : api(deleteAreaById, { id: action.kind === 'deleteFloor' ? action.floor.id : action.area.id }),
    onSuccess: onDeleted,
    onError,
  });
  return (action: DeleteAction) => {
    const name =
      action.kind === 'deleteRoom'
        ? action.room.name
        : action.kind === 'deleteFloor'
          ? action.floor.name
          : action.area.name;
    modal.confirm({
      title: t('common.delete'),
      content: t(`tree.${action.kind}Confirm`, { name }),
      okButtonProps: { danger: true },
      // The refusal is shown as a message; the confirmation closes either way.
      onOk: () => remove.mutateAsync(action).catch(() => undefined),
    });
  };
};
