import { getPlatformName, uploadLogo } from '@vigil/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Image, Space, Typography, Upload } from 'antd';
import type { UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';

const MAX_BYTES = 100 * 1024;
const LOGO_PX = 200;

/** Natural width and height of an image file, read through an object URL. */
const imageSize = (file: Blob): Promise<{ width: number; height: number }> =>
  new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new window.Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('image'));
    };
    img.src = url;
  });

const PlatSetPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const onError = useApiError();
  const session = useSession();
  const isSenior = session.info?.role === 'SENIOR_ROLE';
  const [uploaded, setUploaded] = useState<string | null>(null);

  const setting = useQuery({ queryKey: ['platformName'], queryFn: () => api(getPlatformName, {}) });

  const upload = useMutation({
    mutationFn: (file: File) => {
      const data = new FormData();
      data.append('file', file);
      return api(uploadLogo, data);
    },
    onSuccess: (result) => {
      setUploaded(result.url);
      void message.success(t('platSet.saved'));
    },
    onError,
  });

  const beforeUpload: UploadProps['beforeUpload'] = async (file) => {
    if (file.type !== 'image/png') {
      void message.error(t('platSet.uploadNotPng'));
      return Upload.LIST_IGNORE;
    }
    if (file.size >= MAX_BYTES) {
      void message.error(t('platSet.uploadTooLarge'));
      return Upload.LIST_IGNORE;
    }
    try {
      const { width, height } = await imageSize(file);
      if (width !== LOGO_PX || height !== LOGO_PX) {
        void message.error(t('platSet.uploadSize'));
        return Upload.LIST_IGNORE;
      }
    } catch {
      void message.error(t('platSet.uploadNotPng'));
      return Upload.LIST_IGNORE;
    }
    upload.mutate(file);
    return false;
  };

  return (
    <Card title={t('platSet.title')} loading={setting.isLoading}>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('platSet.name')}>
          <span data-testid="platset-name">{setting.data?.platformName ?? ''}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('platSet.logo')}>
          {setting.data?.logoUrl ? (
            <Image src={setting.data.logoUrl} width={100} height={100} alt={t('platSet.logo')} />
          ) : (
            '—'
          )}
        </Descriptions.Item>
      </Descriptions>
      <Space direction="vertical" style={{ marginTop: 16, width: '100%' }}>
        <Typography.Text type="secondary">{t('platSet.logoRule')}</Typography.Text>
        <Upload accept="image/png" showUploadList={false} maxCount={1} beforeUpload={beforeUpload}>
          <Button data-testid="platset-upload" loading={upload.isPending}>
            {t('platSet.upload')}
          </Button>
        </Upload>
        {uploaded && (
          <Space direction="vertical" data-testid="platset-uploaded">
            <Typography.Text strong>{t('platSet.uploaded')}</Typography.Text>
            <Image src={uploaded} width={100} height={100} alt={t('platSet.uploaded')} />
            <Typography.Text copyable>{uploaded}</Typography.Text>
            {!isSenior && <Alert type="info" showIcon message={t('platSet.providerNote')} />}
          </Space>
        )}
      </Space>
    </Card>
  );
};

export default PlatSetPage;
