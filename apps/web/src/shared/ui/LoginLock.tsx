import { unlockAccount } from '@vigil/contract/browser';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { ConfirmLink } from './crud.tsx';
import { useApiError } from './useApiError.ts';

/**
 * A login account locked after failed passwords: when the lock ends, and the administrator's way to
 * lift it (from every address) at once.
 */
export const LoginLock = ({
  userName,
  lockedUntil,
  listKey,
}: {
  userName: string;
  lockedUntil: string | null | undefined;
  listKey: QueryKey;
}) => {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const onError = useApiError();
  if (!lockedUntil) return null;
  const until = new Date(lockedUntil).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  return (
    <Space size={4} data-testid="login-lock">
      <Tag color="red">{t('lock.lockedUntil', { time: until })}</Tag>
      <ConfirmLink
        label={t('lock.unlock')}
        title={t('lock.unlock')}
        content={t('lock.unlockConfirm', { name: userName })}
        onOk={() =>
          api(unlockAccount, { userName })
            .then(() => queryClient.invalidateQueries({ queryKey: listKey }))
            .catch((error: unknown) => {
              onError(error);
              throw error;
            })
        }
      />
    </Space>
  );
};
