import { App, Button, Modal, Space, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isAbroad } from '../shared/storage.ts';

/** The companion app is served by this server under /m/ (the mobile issue builds it). */
export const appLinks = (origin: string) => ({
  app: `${origin}/m/`,
  ios: `${origin}/m/?platform=ios`,
  android: `${origin}/m/?platform=android`,
  androidPage: `${origin}/m/install/android`,
});

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
  const abroad = isAbroad();
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
          <Space wrap>
            <Button onClick={() => go('/people-manage/userManage')}>{t('guide.createResident')}</Button>
            <Button onClick={() => go('/permission/accountmanager')}>{t('guide.createMaintenance')}</Button>
          </Space>
        </Space>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} align="center">
          <QrImage text={links.app} label={t('guide.domestic.scan')} />
          <Space wrap>
            <Button onClick={() => go('/people-manage/userManage')}>{t('guide.createResident')}</Button>
            <Button onClick={() => go('/nurse-manage/nurseManage')}>{t('guide.createFamily')}</Button>
            <Button onClick={() => go('/permission/accountmanager')}>{t('guide.createMaintenance')}</Button>
          </Space>
        </Space>
      )}
    </Modal>
  );
};
