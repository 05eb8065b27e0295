import {
  BarChartOutlined,
  DownloadOutlined,
  FullscreenOutlined,
  GlobalOutlined,
  HomeOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { adminLogout, getPlatformName, postPlatformName } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { App, Avatar, Breadcrumb, Button, Dropdown, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../shared/api/client.ts';
import { allowedRoutes, routeForPath } from '../shared/routing/route-access.ts';
import { useAccess } from '../shared/session/access.ts';
import { mayCall } from '../shared/session/may-call.ts';
import { sessionStore, useSession } from '../shared/session/session-store.ts';
import { visibleNavbarItems } from '../shared/ui/navbar-items.ts';
import { AlarmBell } from './AlarmBell.tsx';
import { Clock } from './Clock.tsx';
import { DownloadGuide } from './DownloadGuide.tsx';
import { LanguageDialog } from './LanguageDialog.tsx';
import { breadcrumbFor } from './menu-tree.ts';
import { PasswordDialog } from './PasswordDialog.tsx';
import { PlatformNameDialog } from './PlatformNameDialog.tsx';
import { tagsStore } from './tags-store.ts';

type Dialog = 'language' | 'password' | 'platformName' | 'guide' | null;

export const Navbar = ({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) => {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const access = useAccess();
  const [dialog, setDialog] = useState<Dialog>(null);
  const platform = useQuery({ queryKey: ['platform'], queryFn: () => api(getPlatformName, {}) });
  const items =
    access && session.info
      ? visibleNavbarItems({
          path: location.pathname,
          role: access.role,
          allowedNames: allowedRoutes(access).map((r) => r.name),
          fastLogin: session.fastLogin,
        })
      : null;
  if (!access || !session.info || !items) return null;
  const userName = session.info.name || session.info.userName;
  const crumbs = breadcrumbFor(location.pathname, routeForPath(location.pathname));

  const toggleFullscreen = () => {
    if (!document.fullscreenEnabled) {
      void message.warning(t('navbar.fullscreenUnsupported'));
      return;
    }
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen();
  };

  const signOut = () =>
    modal.confirm({
      title: t('avatar.signOutConfirm', { name: platform.data?.platformName ?? t('app.name') }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await api(adminLogout, {}).catch(() => undefined);
        sessionStore.reset();
        tagsStore.clear();
        void navigate('/login');
      },
    });

  const avatarItems = [
    ...(mayCall(postPlatformName, access.role) ? [{ key: 'platformName', label: t('avatar.platformName') }] : []),
    { key: 'password', label: t('avatar.changePassword') },
    { key: 'signOut', label: t('avatar.signOut') },
  ];

  /** An icon button named for screen readers; the tooltip shows the same name. */
  const iconButton = (testId: string, label: string, icon: ReactNode, onClick: () => void) => (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={icon} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );

  return (
    <div className="navbar" data-testid="navbar">
      <div className="navbar-left">
        {items.has('toggle') && (
          <Button
            type="text"
            aria-label={t('navbar.toggleMenu')}
            aria-expanded={!collapsed}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={onToggle}
            data-testid="nav-toggle"
          />
        )}
        <Breadcrumb
          className="navbar-breadcrumb"
          items={crumbs.map((c) => ({ title: t(c) }))}
          data-testid="breadcrumb"
        />
      </div>
      <div className="navbar-right">
        {items.has('statistics') &&
          iconButton(
            'nav-statistics',
            t('navbar.statistics'),
            <BarChartOutlined />,
            () => void navigate('/statistics'),
          )}
        {items.has('home') && iconButton('nav-home', t('navbar.home'), <HomeOutlined />, () => void navigate('/'))}
        {/* The pending count of the chosen provider (or the scope), asked only while the bell shows;
            handling an alarm and the live socket's frames reload it (FRAME_TOUCHES). */}
        {items.has('alarmBell') && <AlarmBell />}
        {items.has('fullscreen') &&
          iconButton('nav-fullscreen', t('navbar.fullscreen'), <FullscreenOutlined />, toggleFullscreen)}
        {items.has('language') &&
          iconButton('nav-language', t('navbar.language'), <GlobalOutlined />, () => setDialog('language'))}
        {items.has('downloadGuide') &&
          iconButton('nav-guide', t('navbar.downloadGuide'), <DownloadOutlined />, () => setDialog('guide'))}
        {items.has('clock') && <Clock />}
        {items.has('userName') && (
          <span className="navbar-user" title={userName} data-testid="nav-user">
            {userName}
          </span>
        )}
        {items.has('avatar') && (
          <Dropdown
            trigger={['hover', 'click']}
            menu={{
              items: avatarItems,
              onClick: ({ key }) => {
                if (key === 'signOut') signOut();
                else setDialog(key as Dialog);
              },
            }}
          >
            <Button type="text" className="navbar-avatar" aria-label={t('navbar.accountMenu')} data-testid="nav-avatar">
              <Avatar size="small" icon={<UserOutlined />} />
            </Button>
          </Dropdown>
        )}
      </div>
      <LanguageDialog open={dialog === 'language'} onClose={() => setDialog(null)} />
      {/* Mounted only while open: a form instance without its Form makes antd warn on every page. */}
      {dialog === 'password' && <PasswordDialog open onClose={() => setDialog(null)} />}
      {dialog === 'platformName' && <PlatformNameDialog open onClose={() => setDialog(null)} />}
      <DownloadGuide open={dialog === 'guide'} onClose={() => setDialog(null)} />
    </div>
  );
};
