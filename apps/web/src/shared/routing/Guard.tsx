import { adminSession } from '@vigil/contract/browser';
import { App, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api, setUnauthorizedHandler, loginRedirectPath } from '../api/client.ts';
import { accessFrom } from '../session/access.ts';
import { sessionStore, useSession } from '../session/session-store.ts';
import { decideNavigation } from './route-access.ts';

/** Applies the navigation guard to every route change. */
export const Guard = () => {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const { message } = App.useApp();
  const { t } = useTranslation();
  const previous = useRef<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      // Spec document 2, section 8: "login invalid, log in again" — once, however many calls failed.
      void message.warning({ key: 'session-ended', content: t('login.expired') });
      void navigate(loginRedirectPath(window.location), { replace: true });
    });
  }, [navigate, message, t]);

  const decision = decideNavigation({
    path: location.pathname,
    search: location.search,
    token: session.token,
    access: accessFrom(session),
    from: previous.current,
  });

  useEffect(() => {
    previous.current = location.pathname;
  }, [location.pathname]);

  useEffect(() => {
    if (decision.kind !== 'loadInfo' || loading) return;
    setLoading(true);
    api(adminSession, {})
      .then((info) => {
        if (!info.role) throw new Error('no role');
        sessionStore.setInfo(info);
      })
      .catch(() => {
        sessionStore.reset();
        void message.error(t('login.error.noRole'));
        void navigate(loginRedirectPath(window.location), { replace: true });
      })
      .finally(() => setLoading(false));
  }, [decision.kind, loading, message, navigate, t]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'loadInfo') return <Spin fullscreen />;
  return <Outlet />;
};
