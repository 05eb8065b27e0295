import { bunkCheckOut, deleteResident, endAbsence } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { placeOf, type ResidentRow } from './resident-model.ts';

export interface RowHandlers {
  onEdit: (row: ResidentRow) => void;
  onCheckIn: (row: ResidentRow) => void;
  onAbsence: (row: ResidentRow) => void;
}

/** The list's mutations; each refreshes the list and the summary counts. */
const useResidentMutations = () => {
  const { t } = useTranslation('residents');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['residents'] });

  const checkOut = useMutation({
    mutationFn: (row: ResidentRow) => api(bunkCheckOut, { userId: row.id }),
    onSuccess: (_, row) => {
      void message.success(t('actions.checkedOut', { name: row.name }));
      void refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (row: ResidentRow) => api(deleteResident, { id: row.id }),
    onSuccess: (result, row) => {
      // The server decides (decision 0009): never admitted → deleted; otherwise logged off, data kept.
      void message.success(
        t(result.outcome === 'deleted' ? 'actions.deleted' : 'actions.loggedOff', { name: row.name }),
      );
      void refresh();
    },
    onError,
  });
  const endAway = useMutation({
    mutationFn: (row: ResidentRow) => api(endAbsence, { userId: row.id }),
    onSuccess: (_, row) => {
      void message.success(t('absence.ended', { name: row.name }));
      void refresh();
    },
    onError,
  });
  return { checkOut, remove, endAway };
};

/**
 * What can be done to a resident depends on the lifecycle state (spec doc 1 §4):
 * registered → check in, delete; checked in → change bed, check out, absences;
 * checked out → check in again, log off; logged off → check in again. Delete and log off are
 * one call (deleteById): the server removes a resident never checked in and logs off the others.
 */
export const ResidentRowActions = (props: RowHandlers & { row: ResidentRow }) => {
  const { row } = props;
  const { t } = useTranslation('residents');
  const { checkOut, remove, endAway } = useResidentMutations();
  const checkedIn = row.state === 'checkedIn';

  return (
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={() => props.onEdit(row)}>
        {t('common.edit')}
      </Button>
      <Button type="link" size="small" onClick={() => props.onCheckIn(row)}>
        {t(checkedIn ? 'actions.changeBed' : 'actions.checkIn')}
      </Button>
      {checkedIn && (
        <ConfirmLink
          label={t('actions.checkOut')}
          title={t('actions.checkOut')}
          content={t('actions.checkOutConfirm', { name: row.name, bed: placeOf(row) })}
          onOk={() => checkOut.mutateAsync(row).catch(() => undefined)}
        />
      )}
      {checkedIn && !row.away && (
        <Button type="link" size="small" onClick={() => props.onAbsence(row)}>
          {t('actions.absence')}
        </Button>
      )}
      {checkedIn && row.away && (
        <ConfirmLink
          label={t('actions.back')}
          title={t('actions.back')}
          content={t('actions.backConfirm', { name: row.name })}
          onOk={() => endAway.mutateAsync(row).catch(() => undefined)}
        />
      )}
      {row.state === 'registered' && (
        <ConfirmLink
          danger
          label={t('common.delete')}
          title={t('common.delete')}
          content={t('actions.deleteConfirm', { name: row.name })}
          onOk={() => remove.mutateAsync(row).catch(() => undefined)}
        />
      )}
      {row.state === 'checkedOut' && (
        <ConfirmLink
          danger
          label={t('actions.logOff')}
          title={t('actions.logOff')}
          content={t('actions.logOffConfirm', { name: row.name })}
          onOk={() => remove.mutateAsync(row).catch(() => undefined)}
        />
      )}
    </Space>
  );
};
