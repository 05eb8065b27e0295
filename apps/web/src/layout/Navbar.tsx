import {
  BarChartOutlined,
  BellOutlined,
  DownloadOutlined,
  FullscreenOutlined,
  GlobalOutlined,
  HomeOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { adminLogout } from '@vigil/contract/browser';
import { App, Avatar, Badge, Breadcrumb, Button, Dropdown, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../shared/api/client.ts';
import { allowedRoutes, routeForPath } from '../shared/routing/route-access.ts';
import { useAccess } from '../shared/session/access.ts';
import { sessionStore, useSession } from '../shared/session/session-store.ts';
import { visibleNavbarItems } from '../shared/ui/navbar-items.ts';
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
  if (!access || !session.info) return null;
  const items = visibleNavbarItems({
    path: location.pathname,
    role: access.role,
    allowedNames: allowedRoutes(access).map((r) => r.name),
    fastLogin: session.fastLogin,
  });
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
      title: t('avatar.signOutConfirm'),
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
    ...(access.role === 'SENIOR_ROLE' ? [{ key: 'platformName', label: t('avatar.platformName') }] : []),
    { key: 'password', label: t('avatar.changePassword') },
    { key: 'signOut', label: t('avatar.signOut') },
  ];

  return (
    <div className="navbar" data-testid="navbar">
      <Space size="middle">
        {items.has('toggle') && (
          <Button
            type="text"
            aria-label={t('navbar.toggleMenu')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={onToggle}
            data-testid="nav-toggle"
          />
        )}
        <Breadcrumb items={crumbs.map((c) => ({ title: t(c) }))} data-testid="breadcrumb" />
      </Space>
      <Space size="middle" className="navbar-right">
        {items.has('statistics') && (
          <Tooltip title={t('navbar.statistics')}>
            <Button
              type="text"
              icon={<BarChartOutlined />}
              onClick={() => void navigate('/statistics')}
              data-testid="nav-statistics"
            />
          </Tooltip>
        )}
        {items.has('home') && (
          <Tooltip title={t('navbar.home')}>
            <Button type="text" icon={<HomeOutlined />} onClick={() => void navigate('/')} data-testid="nav-home" />
          </Tooltip>
        )}
        {items.has('alarmBell') && (
          <Tooltip title={t('navbar.alarms')}>
            <Badge dot={false} data-testid="nav-bell">
              <Button type="text" icon={<BellOutlined />} onClick={() => void navigate('/alarm-log/alarmIndex')} />
            </Badge>
          </Tooltip>
        )}
        {items.has('fullscreen') && (
          <Tooltip title={t('navbar.fullscreen')}>
            <Button type="text" icon={<FullscreenOutlined />} onClick={toggleFullscreen} data-testid="nav-fullscreen" />
          </Tooltip>
        )}
        {items.has('language') && (
          <Tooltip title={t('navbar.language')}>
            <Button
              type="text"
              icon={<GlobalOutlined />}
              onClick={() => setDialog('language')}
              data-testid="nav-language"
            />
          </Tooltip>
        )}
        {items.has('downloadGuide') && (
          <Tooltip title={t('navbar.downloadGuide')}>
            <Button
              type="text"
              icon={<DownloadOutlined />}
              onClick={() => setDialog('guide')}
              data-testid="nav-guide"
            />
          </Tooltip>
        )}
        {items.has('clock') && <Clock />}
        {items.has('userName') && <span data-testid="nav-user">{session.info.name || session.info.userName}</span>}
        {items.has('avatar') && (
          <Dropdown
            menu={{
              items: avatarItems,
              onClick: ({ key }) => {
                if (key === 'signOut') signOut();
                else setDialog(key as Dialog);
              },
            }}
          >
            <Avatar icon={<UserOutlined />} style={{ cursor: 'pointer' }} data-testid="nav-avatar" />
          </Dropdown>
        )}
      </Space>
      <LanguageDialog open={dialog === 'language'} onClose={() => setDialog(null)} />
      {/* Mounted only while open: a form instance without its Form makes antd warn on every page. */}
      {dialog === 'password' && <PasswordDialog open onClose={() => setDialog(null)} />}
      {dialog === 'platformName' && <PlatformNameDialog open onClose={() => setDialog(null)} />}
      <DownloadGuide open={dialog === 'guide'} onClose={() => setDialog(null)} />
    </div>
  );
};
