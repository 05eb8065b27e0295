import { adminLogin, adminSso, type LoginResult } from '@vigil/contract';
import { Alert, Button, Card, Checkbox, Form, Input, Radio, Select, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { encryptPassword } from '../../shared/api/rsa.ts';
import { storedLanguage, switchLanguage, UI_LANGUAGES, type UiLanguage } from '../../shared/i18n/index.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { StorageKey, storage } from '../../shared/storage.ts';
import { loginErrorMessage } from './login-errors.ts';

interface LoginFields {
  userName: string;
  passWord: string;
  role: 'staff' | 'government';
  remember: boolean;
}

/** Where to go after login: the redirect query when it is a console path, else the role's landing page. */
export const afterLoginPath = (redirect: string | null, result: Pick<LoginResult, 'landingPath'>): string =>
  redirect && /^\/(?![/\\])/.test(redirect) && !redirect.startsWith('/login') ? redirect : result.landingPath;

export const LoginPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginFields>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fast = {
    userName: params.get('userName'),
    secretPassword: params.get('secretPassword'),
    timestamp: params.get('timestamp'),
  };
  const isFast = Boolean(fast.userName && fast.secretPassword && fast.timestamp);
  const fastStarted = useRef(false);

  const finish = (result: LoginResult, fastLogin: boolean) => {
    sessionStore.reset();
    sessionStore.signIn(result, fastLogin);
    void navigate(afterLoginPath(params.get('redirect'), result), { replace: true });
  };

  useEffect(() => {
    if (!isFast || fastStarted.current) return;
    fastStarted.current = true;
    setBusy(true);
    api(adminSso, {
      userName: fast.userName ?? '',
      secretPassword: fast.secretPassword ?? '',
      timestamp: fast.timestamp ?? '',
      from: 'PC',
    })
      .then((result) => finish(result, true))
      .catch(() => {
        setError(t('login.fast.failed'));
        setBusy(false);
      });
  });

  const submit = async (values: LoginFields) => {
    setBusy(true);
    setError(null);
    try {
      const result = await api(adminLogin, {
        userName: values.userName.trim(),
        passWord: await encryptPassword(values.passWord),
        rsa: true,
        from: 'PC',
      });
      if (values.role === 'government' && result.role !== 'GOVERNMENT') {
        setError(t('login.error.noAccess'));
        setBusy(false);
        return;
      }
      storage.set(StorageKey.rememberedUser, values.remember ? values.userName.trim() : null);
      finish(result, false);
    } catch (err) {
      setError(loginErrorMessage(err, t));
      setBusy(false);
    }
  };

  const remembered = storage.get(StorageKey.rememberedUser);
  return (
    <div className="login-page">
      <Card className="login-card" data-testid="login-card">
        <div className="login-head">
          <Typography.Title level={3} style={{ margin: 0 }}>
            {storage.get(StorageKey.platName) ?? t('app.name')}
          </Typography.Title>
          <Select<UiLanguage>
            size="small"
            value={storedLanguage()}
            onChange={switchLanguage}
            data-testid="login-language"
            options={UI_LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
            style={{ width: 120 }}
          />
        </div>
        <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
        {isFast && busy ? (
          <Spin tip={t('login.fast.progress')}>
            <div style={{ height: 80 }} />
          </Spin>
        ) : (
          <Form<LoginFields>
            form={form}
            layout="vertical"
            onFinish={(v) => void submit(v)}
            initialValues={{ userName: remembered ?? '', role: 'staff', remember: Boolean(remembered) }}
            data-testid="login-form"
          >
            <Form.Item
              name="userName"
              label={t('login.account')}
              rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
            >
              <Input autoComplete="username" maxLength={64} data-testid="login-user" />
            </Form.Item>
            <Form.Item
              name="passWord"
              label={t('login.password')}
              rules={[{ required: true, message: t('login.passwordRequired') }]}
            >
              <Input.Password autoComplete="current-password" maxLength={64} data-testid="login-password" />
            </Form.Item>
            <Form.Item name="role" label={t('login.role')}>
              <Radio.Group>
                <Radio value="staff">{t('login.role.staff')}</Radio>
                <Radio value="government">{t('login.role.government')}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item name="remember" valuePropName="checked">
              <Checkbox>{t('login.remember')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </Form>
        )}
        {error && <Alert type="error" showIcon message={error} style={{ marginTop: 16 }} data-testid="login-error" />}
      </Card>
    </div>
  );
};
export default LoginPage;
