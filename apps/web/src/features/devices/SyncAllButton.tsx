import { syncAllThirdDevice } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';

/**
 * Syncs every NB-IoT and 4G device of the scope with the operator's IoT platform, after a
 * confirmation, and shows how it went: how many were synced and why each failure failed.
 */
export const SyncAllButton = (props: { providerId?: number }) => {
  const { t } = useTranslation('devices');
  const { modal } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const sync = useMutation({
    mutationFn: () => api(syncAllThirdDevice, { providerId: props.providerId }),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      const show = result.failed.length ? modal.warning : modal.success;
      show({
        title: t('sync.doneTitle'),
        width: 560,
        content: (
          <div data-testid="sync-all-result">
            <Typography.Paragraph>
              {t('sync.doneBody', { synced: result.synced, total: result.total })}
            </Typography.Paragraph>
            {result.failed.length > 0 && (
              <Table
                size="small"
                rowKey="deviceId"
                title={() => t('sync.failedHeader', { count: result.failed.length })}
                pagination={{ pageSize: 8, hideOnSinglePage: true }}
                dataSource={result.failed}
                columns={[
                  { title: t('field.deviceId'), dataIndex: 'deviceId', width: 140 },
                  { title: t('sync.reason'), dataIndex: 'msg' },
                ]}
              />
            )}
          </div>
        ),
      });
    },
    onError,
  });
  return (
    <Button
      loading={sync.isPending}
      data-testid="sync-all"
      onClick={() =>
        modal.confirm({
          title: t('sync.allTitle'),
          content: t('sync.allConfirm'),
          onOk: () => sync.mutate(),
        })
      }
    >
      {t('sync.all')}
    </Button>
  );
};
