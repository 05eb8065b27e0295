import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

const ErrorPage = ({ status, prefix }: { status: '404' | '403'; prefix: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={t(`${prefix}.title`)}
      subTitle={t(`${prefix}.body`)}
      extra={
        <Button type="primary" onClick={() => void navigate('/')}>
          {t('error.backHome')}
        </Button>
      }
    />
  );
};

export const NotFoundPage = () => <ErrorPage status="404" prefix="error.404" />;
export const NoPermissionPage = () => <ErrorPage status="403" prefix="error.noPermission" />;
