import { App, Descriptions, Typography } from 'antd';
import { useCallback } from 'react';
import { useCaregiverTexts } from './useCaregiverTexts.ts';

export interface AppCredentials {
  name: string;
  userName: string | null;
  password: string;
}

/**
 * Shows a caregiver's app login and its generated password once, both copyable (the server
 * keeps only a hash, so this is the one chance to hand the password over).
 */
export const useShowAppCredentials = () => {
  const { modal } = App.useApp();
  const { t } = useCaregiverTexts();
  return useCallback(
    (credentials: AppCredentials, kind: 'created' | 'reset') => {
      modal.info({
        title: t(kind === 'created' ? 'credentials.createdTitle' : 'credentials.resetTitle', {
          name: credentials.name,
        }),
        width: 480,
        okText: t('credentials.done'),
        content: (
          <div data-testid="app-credentials">
            <Descriptions
              column={1}
              size="small"
              bordered
              items={[
                ...(credentials.userName
                  ? [
                      {
                        key: 'account',
                        label: t('credentials.account'),
                        children: <Typography.Text copyable>{credentials.userName}</Typography.Text>,
                      },
                    ]
                  : []),
                {
                  key: 'password',
                  label: t('credentials.password'),
                  children: (
                    <Typography.Text copyable code data-testid="app-password">
                      {credentials.password}
                    </Typography.Text>
                  ),
                },
              ]}
            />
            <Typography.Paragraph type="warning" style={{ marginTop: 12, marginBottom: 0 }}>
              {t('credentials.once')}
            </Typography.Paragraph>
          </div>
        ),
      });
    },
    [modal, t],
  );
};
