import { CONSTANTS, getPlatformName, postPlatformName } from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../shared/api/client.ts';
import { useFormSubmit } from '../shared/ui/useFormSubmit.ts';

export const platformNameValid = (name: string): boolean => {
  const length = [...name.trim()].length;
  return length >= CONSTANTS.platformNameMinLength && length <= CONSTANTS.platformNameMaxLength;
};

export const PlatformNameDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ platformName: string }>();
  const current = useQuery({ queryKey: ['platform'], queryFn: () => api(getPlatformName, {}), enabled: open });
  useEffect(() => {
    if (current.data) form.setFieldsValue({ platformName: current.data.platformName });
  }, [current.data, form]);
  const save = useMutation({
    mutationFn: (platformName: string) => api(postPlatformName, { platformName: platformName.trim() }),
    onSuccess: () => {
      void message.success(t('platformName.success'));
      void queryClient.invalidateQueries({ queryKey: ['platform'] });
      onClose();
    },
  });
  const submit = useFormSubmit(form, (values: { platformName: string }) => save.mutateAsync(values.platformName), {
    onError: () => void message.error(t('platformName.failed')),
  });
  return (
    <Modal
      open={open}
      title={t('platformName.title')}
      {...submit.modalProps(onClose)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form {...submit.formProps} layout="vertical" data-testid="platform-name-dialog">
        <Form.Item
          name="platformName"
          label={t('platformName.label')}
          rules={[
            {
              validator: (_rule, value: string | undefined) =>
                platformNameValid(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t('platformName.rule'))),
            },
          ]}
        >
          <Input maxLength={CONSTANTS.platformNameMaxLength} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
};
