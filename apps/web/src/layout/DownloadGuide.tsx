import { App, Button, Modal, Space, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { allowedRoutes, routeForPath, type AccessContext } from '../shared/routing/route-access.ts';
import { useAbroad, useAccess } from '../shared/session/access.ts';

/** The companion app is served by this server under /m/ (the mobile issue builds it). */
export const appLinks = (origin: string) => ({
  app: `${origin}/m/`,
  ios: `${origin}/m/?platform=ios`,
  android: `${origin}/m/?platform=android`,
  androidPage: `${origin}/m/install/android`,
});

export type GuideAction = 'createResident' | 'createFamily' | 'createMaintenance';

/**
 * Where each button of the guide leads. Family accounts come from a resident's emergency
 * contacts, so "family account" opens the residents list, not caregiver management.
 */
export const GUIDE_TARGETS: Record<GuideAction, string> = {
  createResident: '/people-manage/userManage',
  createFamily: '/people-manage/userManage',
  createMaintenance: '/permission/accountmanager',
};

/**
 * The guide's buttons the session may follow (issue 8, point 14): only those whose screen the
 * route access behind the menu lets it open. Abroad, the spec's guide has no family button.
 */
export const guideActions = (access: AccessContext | null): GuideAction[] => {
  if (!access) return [];
  const allowed = allowedRoutes(access);
  const offered: GuideAction[] = access.abroad
    ? ['createResident', 'createMaintenance']
    : ['createResident', 'createFamily', 'createMaintenance'];
  return offered.filter((action) => {
    const route = routeForPath(GUIDE_TARGETS[action]);
    return route !== undefined && allowed.includes(route);
  });
};

const QrImage = ({ text, label }: { text: string; label: string }) => {
  const [src, setSrc] = useState<string>('');
  useEffect(() => {
    void QRCode.toDataURL(text, { width: 180, margin: 1 }).then(setSrc);
  }, [text]);
  return (
    <div style={{ textAlign: 'center' }}>
      {src && <img src={src} alt={label} width={180} height={180} data-testid="guide-qr" />}
      <div>{label}</div>
    </div>
  );
};

export const DownloadGuide = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const links = appLinks(window.location.origin);
  const go = (path: string) => {
    onClose();
    void navigate(path);
  };
  const access = useAccess();
  const abroad = useAbroad();
  const actions = guideActions(access);
  const buttons =
    actions.length > 0 ? (
      <Space orientation="vertical" align="center" data-testid="guide-actions">
        <Space wrap style={{ justifyContent: 'center' }}>
          {actions.map((action) => (
            <Button key={action} onClick={() => go(GUIDE_TARGETS[action])} data-testid={`guide-${action}`}>
              {t(`guide.${action}`)}
            </Button>
          ))}
        </Space>
        {actions.includes('createFamily') && (
          <Typography.Text type="secondary" data-testid="guide-family-hint">
            {t('guide.familyHint')}
          </Typography.Text>
        )}
      </Space>
    ) : (
      <Typography.Text type="secondary" data-testid="guide-no-actions">
        {t('guide.noActions')}
      </Typography.Text>
    );
  return (
    <Modal open={open} title={t('guide.title')} onCancel={onClose} footer={null} width={520} destroyOnHidden>
      {abroad ? (
        <Space orientation="vertical" style={{ width: '100%' }} align="center">
          <Space size="large">
            <QrImage text={links.ios} label={t('guide.ios')} />
            <QrImage text={links.android} label={t('guide.android')} />
          </Space>
          <Space wrap>
            <Button
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(links.app)
                  .then(() => message.success(t('guide.copySuccess')))
                  .catch(() => message.error(t('common.unknownError')))
              }
            >
              {t('guide.copyLink')}
            </Button>
            <Typography.Link href={links.androidPage} target="_blank">
              {t('guide.androidPage')}
            </Typography.Link>
          </Space>
          {buttons}
        </Space>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} align="center">
          <QrImage text={links.app} label={t('guide.domestic.scan')} />
          {buttons}
        </Space>
      )}
    </Modal>
  );
};
