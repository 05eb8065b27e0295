import { adminLogin, adminSso, loginPasswordProblem, type LoginResult } from '@vigil/contract/browser';
import { Button } from 'antd';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { encryptPassword } from '../../shared/api/rsa.ts';
import { storedLanguage, switchLanguage, UI_LANGUAGES, type UiLanguage } from '../../shared/i18n/index.ts';
import { consoleRedirect } from '../../shared/routing/route-access.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { StorageKey, storage } from '../../shared/storage.ts';
import { loginErrorMessage } from './login-errors.ts';
import './LoginPage.css';

type LoginAs = 'staff' | 'government';

/** Where to go after login: the redirect query when it is a console path, else the role's landing page. */
export const afterLoginPath = (redirect: string | null, result: Pick<LoginResult, 'landingPath'>): string =>
  consoleRedirect(redirect) ?? result.landingPath;

/**
 * The first page every user loads, so it is built from native form elements plus antd's
 * Button only (antd inputs pull in its whole form engine): its JavaScript stays inside the 250 KB budget (bench/route-chunks.ts).
 */
export const LoginPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const remembered = storage.get(StorageKey.rememberedUser);
  const [userName, setUserName] = useState(remembered ?? '');
  const [passWord, setPassWord] = useState('');
  const [loginAs, setLoginAs] = useState<LoginAs>('staff');
  const [remember, setRemember] = useState(Boolean(remembered));
  const [missing, setMissing] = useState<{ userName?: boolean; passWord?: boolean }>({});
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const account = userName.trim();
    const problems = { userName: !account, passWord: !passWord };
    setMissing(problems);
    if (problems.userName || problems.passWord) return;
    const rule = loginPasswordProblem(passWord);
    if (rule) {
      setError(t(rule === 'chinese' ? 'login.passwordNoChinese' : 'login.passwordLength'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await api(adminLogin, {
        userName: account,
        passWord: await encryptPassword(passWord),
        rsa: true,
        from: 'PC',
      });
      if (loginAs === 'government' && result.role !== 'GOVERNMENT') {
        setError(t('login.error.noAccess'));
        setBusy(false);
        return;
      }
      storage.set(StorageKey.rememberedUser, remember ? account : null);
      finish(result, false);
    } catch (err) {
      setError(loginErrorMessage(err, t));
      setBusy(false);
    }
  };

  return (
    <div className="login-page">
      <main className="login-card" data-testid="login-card">
        <div className="login-head">
          <h1 className="login-title">{storage.get(StorageKey.platName) ?? t('app.name')}</h1>
          <select
            className="login-language"
            aria-label={t('navbar.language')}
            value={storedLanguage()}
            onChange={(e) => switchLanguage(e.target.value as UiLanguage)}
            data-testid="login-language"
          >
            {UI_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`language.${l}`)}
              </option>
            ))}
          </select>
        </div>
        <p className="login-subtitle">{t('login.subtitle')}</p>
        {isFast && busy ? (
          <p className="login-progress" role="status" data-testid="login-fast-progress">
            {t('login.fast.progress')}
          </p>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate data-testid="login-form">
            <label className="login-field">
              <span>{t('login.account')}</span>
              <input
                className={missing.userName ? 'login-input login-input-error' : 'login-input'}
                name="username"
                autoComplete="username"
                maxLength={64}
                value={userName}
                aria-invalid={missing.userName}
                onChange={(e) => setUserName(e.target.value)}
                data-testid="login-user"
              />
              {missing.userName && <span className="login-field-error">{t('login.accountRequired')}</span>}
            </label>
            <label className="login-field">
              <span>{t('login.password')}</span>
              <input
                type="password"
                className={missing.passWord ? 'login-input login-input-error' : 'login-input'}
                name="password"
                autoComplete="current-password"
                maxLength={64}
                value={passWord}
                aria-invalid={missing.passWord}
                onChange={(e) => setPassWord(e.target.value)}
                data-testid="login-password"
              />
              {missing.passWord && <span className="login-field-error">{t('login.passwordRequired')}</span>}
            </label>
            <fieldset className="login-field login-choice">
              <legend>{t('login.role')}</legend>
              {(['staff', 'government'] as const).map((value) => (
                <label key={value}>
                  <input
                    type="radio"
                    name="loginAs"
                    value={value}
                    checked={loginAs === value}
                    onChange={() => setLoginAs(value)}
                  />{' '}
                  {t(`login.role.${value}`)}
                </label>
              ))}
            </fieldset>
            <label className="login-choice">
              <input
                type="checkbox"
                checked={remember}
                onChange={(e) => setRemember(e.target.checked)}
                data-testid="login-remember"
              />{' '}
              {t('login.remember')}
            </label>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </form>
        )}
        {error && (
          <div className="login-error" role="alert" data-testid="login-error">
            {error}
          </div>
        )}
      </main>
    </div>
  );
};
export default LoginPage;
