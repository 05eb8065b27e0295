import { CONSTANTS } from '@vigil/contract/browser';
import { Drawer, Layout } from 'antd';
import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { allowedRoutes, landingFor, routeForPath } from '../shared/routing/route-access.ts';
import { useAccess } from '../shared/session/access.ts';
import { useSessionRefresh } from '../shared/session/useSessionRefresh.ts';
import { useSession } from '../shared/session/session-store.ts';
import { PasswordDialog } from './PasswordDialog.tsx';
import { UnsavedChangesGuard } from '../shared/ui/UnsavedChangesGuard.tsx';
import { Navbar } from './Navbar.tsx';
import { Sidebar } from './Sidebar.tsx';
import { tagsStore } from './tags-store.ts';
import { TagsView } from './TagsView.tsx';
import { useBranding } from './use-branding.ts';
import { LiveAlarms, SoundPrompt } from '../shared/live/LiveAlarms.tsx';
import './layout.css';

const isMobileWidth = () => window.innerWidth < CONSTANTS.mobileLayoutBelowPx;

/** Tracks the mobile breakpoint with the spec's 500 ms resize debounce. */
const useMobile = () => {
  const [mobile, setMobile] = useState(isMobileWidth);
  useEffect(() => {
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setMobile(isMobileWidth()), CONSTANTS.resizeDebounceMs);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return mobile;
};

export const AppLayout = () => {
  const mobile = useMobile();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();
  const access = useAccess();
  useBranding(location.pathname);
  useSessionRefresh();
  const session = useSession();
  const mustChangePassword = session.info?.mustChangePassword === true;
  const userId = session.info ? String(session.info.userId) : null;

  // The tags of this tab come back after a reload, minus the pages the session may no longer open.
  useEffect(() => {
    if (!access || userId === null) return;
    const allowed = allowedRoutes(access);
    tagsStore.restore(
      userId,
      (view) => {
        const route = routeForPath(view.path);
        return !!route && route.name === view.name && allowed.includes(route);
      },
      landingFor(access),
    );
  }, [access, userId]);

  useEffect(() => {
    const route = routeForPath(location.pathname);
    if (!route || !access) return;
    const landing = landingFor(access);
    const landingRoute = routeForPath(landing);
    if (landingRoute) tagsStore.visit({ path: landing, name: landingRoute.name, affix: true });
    tagsStore.visit({ path: location.pathname, name: route.name, affix: location.pathname === landing });
    if (mobile) setDrawerOpen(false);
  }, [location.pathname, access, mobile]);

  const toggle = () => (mobile ? setDrawerOpen((o) => !o) : setCollapsed((c) => !c));
  return (
    <LiveAlarms>
      <Layout className={mobile ? 'app-layout mobile' : 'app-layout'} style={{ minHeight: '100vh' }}>
        {mobile ? (
          <Drawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            placement="left"
            size={CONSTANTS.sidebarWidthPx}
            styles={{ body: { padding: 0, background: '#001529' } }}
          >
            <Sidebar collapsed={false} />
          </Drawer>
        ) : (
          <Layout.Sider
            className="app-sider"
            width={CONSTANTS.sidebarWidthPx}
            collapsed={collapsed}
            collapsedWidth={64}
            trigger={null}
          >
            <Sidebar collapsed={collapsed} />
          </Layout.Sider>
        )}
        <Layout className="app-main">
          <div className="app-fixed-header">
            <Layout.Header className="app-header">
              <Navbar collapsed={mobile ? !drawerOpen : collapsed} onToggle={toggle} />
            </Layout.Header>
            <TagsView />
            <SoundPrompt />
          </div>
          <Layout.Content className="app-content">
            <UnsavedChangesGuard />
            {mustChangePassword && <PasswordDialog open forced onClose={() => undefined} />}
            <Outlet />
          </Layout.Content>
        </Layout>
      </Layout>
    </LiveAlarms>
  );
};
