import { CONSTANTS, getPlatformName, postPlatformName, type PlatformInfo } from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Image, Input, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { platformNameValid } from '../../layout/PlatformNameDialog.tsx';
import { api } from '../../shared/api/client.ts';
import { mayCall } from '../../shared/session/may-call.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { StorageKey, storage } from '../../shared/storage.ts';
import { LogoField } from '../../shared/ui/LogoField.tsx';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** Shared with the layout's branding and the avatar menu's rename dialog, so a save refreshes all three. */
const PLATFORM_QUERY_KEY = ['platform'];

interface BrandingFields {
  platformName: string;
  logoUrl: string | null;
}

/**
 * Name and logo together, saved by one call. The platform administrator sets the platform's; a
 * provider account its own provider's (the server decides which from the session).
 */
const BrandingForm = ({ current, isProvider }: { current: PlatformInfo; isProvider: boolean }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<BrandingFields>();
  useEffect(() => {
    form.setFieldsValue({ platformName: current.platformName, logoUrl: current.logoUrl });
  }, [current, form]);

  const save = useMutation({
    mutationFn: async (values: BrandingFields) => {
      const platformName = values.platformName.trim();
      // An unchanged logo is left out: a class 2 provider showing its parent's logo keeps following it.
      const logoUrl = values.logoUrl === current.logoUrl ? undefined : values.logoUrl;
      await api(postPlatformName, { platformName, ...(logoUrl === undefined ? {} : { logoUrl }) });
      return platformName;
    },
    onSuccess: (platformName) => {
      // Set now, not after the layout's refetch, so the tab title and the login page never show the old name.
      document.title = platformName;
      storage.set(StorageKey.platName, platformName);
      void queryClient.invalidateQueries({ queryKey: PLATFORM_QUERY_KEY });
      void message.success(t('platSet.saved'));
    },
  });
  const submit = useFormSubmit(form, (values: BrandingFields) => save.mutateAsync(values));

  return (
    <Form {...submit.formProps} layout="vertical" data-testid="platset-form" style={{ maxWidth: 480 }}>
      <Alert type="info" showIcon title={t(isProvider ? 'platSet.scopeProvider' : 'platSet.scopePlatform')} />
      <Form.Item
        name="platformName"
        label={t('platSet.name')}
        style={{ marginTop: 16 }}
        rules={[
          {
            validator: (_rule, value: string | undefined) =>
              platformNameValid(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t('platformName.rule'))),
          },
        ]}
      >
        <Input maxLength={CONSTANTS.platformNameMaxLength} showCount data-testid="platset-name-input" />
      </Form.Item>
      <Form.Item name="logoUrl" label={t('platSet.logo')}>
        <LogoField testId="platset-logo" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={submit.pending} data-testid="platset-save">
        {t('common.save')}
      </Button>
    </Form>
  );
};

/** What roles that may not change the branding see: the name and logo their accounts show. */
const BrandingView = ({ current }: { current: PlatformInfo }) => {
  const { t } = useTranslation();
  return (
    <Descriptions column={1} bordered size="small">
      <Descriptions.Item label={t('platSet.name')}>
        <Space orientation="vertical" size={0}>
          <span data-testid="platset-name">{current.platformName}</span>
          <Typography.Text type="secondary">{t('platSet.nameReadOnly')}</Typography.Text>
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('platSet.logo')}>
        {current.logoUrl ? (
          <Image src={current.logoUrl} width={100} height={100} alt={t('platSet.logo')} />
        ) : (
          t('platSet.noLogo')
        )}
      </Descriptions.Item>
    </Descriptions>
  );
};

const PlatSetPage = () => {
  const role = useSession().info?.role;
  const setting = useQuery({ queryKey: PLATFORM_QUERY_KEY, queryFn: () => api(getPlatformName, {}) });
  const isProvider = role === 'ONE_ROLE' || role === 'TWO_ROLE';

  return (
    <Card title={<ScreenTitle route="platSet" style={{ margin: 0 }} />} loading={setting.isLoading}>
      {setting.data &&
        (mayCall(postPlatformName, role) ? (
          <BrandingForm current={setting.data} isProvider={isProvider} />
        ) : (
          <BrandingView current={setting.data} />
        ))}
    </Card>
  );
};

export default PlatSetPage;
