import { CONSTANTS, getPlatformName, postPlatformName, uploadLogo, type Role } from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Image, Input, Space, Typography, Upload } from 'antd';
import type { UploadProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { platformNameValid } from '../../layout/PlatformNameDialog.tsx';
import { api } from '../../shared/api/client.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { StorageKey, storage } from '../../shared/storage.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';

const MAX_BYTES = 100 * 1024;
const LOGO_PX = 200;
/** Roles the server lets call postPlatformName (its `auth`); everyone else sees the name read-only. */
const PLATFORM_RENAMERS: readonly Role[] = ['SENIOR_ROLE'];
/** Shared with the layout's branding and the avatar menu's rename dialog, so a rename refreshes all three. */
const PLATFORM_QUERY_KEY = ['platform'];

/** Renames the platform; validated like the avatar menu's dialog (1–20 characters after trimming). */
const PlatformNameForm = ({ current }: { current: string | undefined }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ platformName: string }>();
  useEffect(() => {
    if (current !== undefined) form.setFieldsValue({ platformName: current });
  }, [current, form]);

  const save = useMutation({
    mutationFn: (platformName: string) => api(postPlatformName, { platformName }).then(() => platformName),
    onSuccess: (platformName) => {
      // Set now, not after the layout's refetch, so the tab title and the login page never show the old name.
      document.title = platformName;
      storage.set(StorageKey.platName, platformName);
      void queryClient.invalidateQueries({ queryKey: PLATFORM_QUERY_KEY });
      void message.success(t('platSet.saved'));
    },
  });
  const submit = useFormSubmit(form, (values: { platformName: string }) =>
    save.mutateAsync(values.platformName.trim()),
  );

  return (
    <Form {...submit.formProps} layout="inline" data-testid="platset-name-form">
      <Form.Item
        name="platformName"
        rules={[
          {
            validator: (_rule, value: string | undefined) =>
              platformNameValid(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t('platformName.rule'))),
          },
        ]}
      >
        <Input
          aria-label={t('platSet.name')}
          maxLength={CONSTANTS.platformNameMaxLength}
          showCount
          data-testid="platset-name-input"
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={submit.pending} data-testid="platset-name-save">
          {t('common.save')}
        </Button>
      </Form.Item>
    </Form>
  );
};

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
  const role = session.info?.role;
  const isSenior = role === 'SENIOR_ROLE';
  const mayRename = role ? PLATFORM_RENAMERS.includes(role) : false;
  const [uploaded, setUploaded] = useState<string | null>(null);

  const setting = useQuery({ queryKey: PLATFORM_QUERY_KEY, queryFn: () => api(getPlatformName, {}) });

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
          {mayRename ? (
            <PlatformNameForm current={setting.data?.platformName} />
          ) : (
            <Space orientation="vertical" size={0}>
              <span data-testid="platset-name">{setting.data?.platformName ?? ''}</span>
              <Typography.Text type="secondary">{t('platSet.nameReadOnly')}</Typography.Text>
            </Space>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('platSet.logo')}>
          {setting.data?.logoUrl ? (
            <Image src={setting.data.logoUrl} width={100} height={100} alt={t('platSet.logo')} />
          ) : (
            '—'
          )}
        </Descriptions.Item>
      </Descriptions>
      <Space orientation="vertical" style={{ marginTop: 16, width: '100%' }}>
        <Typography.Text type="secondary">{t('platSet.logoRule')}</Typography.Text>
        <Upload accept="image/png" showUploadList={false} maxCount={1} beforeUpload={beforeUpload}>
          <Button data-testid="platset-upload" loading={upload.isPending}>
            {t('platSet.upload')}
          </Button>
        </Upload>
        {uploaded && (
          <Space orientation="vertical" data-testid="platset-uploaded">
            <Typography.Text strong>{t('platSet.uploaded')}</Typography.Text>
            <Image src={uploaded} width={100} height={100} alt={t('platSet.uploaded')} />
            <Typography.Text copyable>{uploaded}</Typography.Text>
            {!isSenior && <Alert type="info" showIcon title={t('platSet.providerNote')} />}
          </Space>
        )}
      </Space>
    </Card>
  );
};

export default PlatSetPage;
