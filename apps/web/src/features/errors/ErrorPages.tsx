import { adminLogout } from '@vigil/contract/browser';
import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { tagsStore } from '../../layout/tags-store.ts';
import { api } from '../../shared/api/client.ts';
import { allowedRoutes } from '../../shared/routing/route-access.ts';
import { useAccess } from '../../shared/session/access.ts';
import { sessionStore, useSession } from '../../shared/session/session-store.ts';

/** Outside the console's layout there is no avatar menu: a signed-in user can still sign out here. */
const SignOutButton = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      data-testid="error-sign-out"
      onClick={() => {
        void api(adminLogout, {})
          .catch(() => undefined)
          .finally(() => {
            sessionStore.reset();
            tagsStore.clear();
            void navigate('/login');
          });
      }}
    >
      {t('avatar.signOut')}
    </Button>
  );
};

const ErrorPage = ({ status, prefix, home = true }: { status: '404' | '403'; prefix: string; home?: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSession().token !== null;
  return (
    <Result
      status={status}
      title={t(`${prefix}.title`)}
      subTitle={t(`${prefix}.body`)}
      data-testid={`error-${status}`}
      extra={
        <Space wrap style={{ justifyContent: 'center' }}>
          {home && (
            <Button type="primary" onClick={() => void navigate('/')}>
              {t('error.backHome')}
            </Button>
          )}
          {signedIn && <SignOutButton />}
        </Space>
      }
    />
  );
};

export const NotFoundPage = () => <ErrorPage status="404" prefix="error.404" />;

/**
 * A page the account may not open; or, for an account no built screen is open to (a government
 * viewer until the statistics dashboard is built), that plainly, with no home to go back to.
 */
export const NoPermissionPage = () => {
  const access = useAccess();
  if (access && allowedRoutes(access).length === 0)
    return <ErrorPage status="403" prefix="error.noScreens" home={false} />;
  return <ErrorPage status="403" prefix="error.noPermission" />;
};
