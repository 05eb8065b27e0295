import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';

/** Shows a failure as the server's localised message (or a generic one) in a toast. */
export const useApiError = () => {
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.httpStatus === 401) return;
      void message.error(error instanceof ApiError ? error.message : t('common.unknownError'));
    },
    [message, t],
  );
};
