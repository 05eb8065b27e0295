import { heChangProvider } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import type { GatewayHostRow } from './device-model.ts';
import { useProviderOptions } from './useProviderOptions.ts';
import { requiredRule } from '../../shared/ui/form-rules.ts';

/** Moves a gateway host with all its sub-devices to another provider (platform administrators). */
export const MoveHostDialog = (props: {
  host: Pick<GatewayHostRow, 'deviceId' | 'providerId' | 'providerName' | 'subDevices'>;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const providers = useProviderOptions(true);
  const [form] = Form.useForm<{ providerId: number }>();
  const move = useMutation({
    mutationFn: (providerId: number) => api(heChangProvider, { deviceId: props.host.deviceId, providerId }),
    onSuccess: (result) => {
      void message.success(t('gateway.moved', { count: result.moved }));
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      props.onClose();
    },
  });
  const submit = useFormSubmit(form, (v: { providerId: number }) => move.mutateAsync(v.providerId));
  return (
    <Modal
      open
      title={t('gateway.moveTitle', { deviceId: props.host.deviceId })}
      okText={t('gateway.move')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
    >
      <Typography.Paragraph type="secondary">
        {t('gateway.moveNote', { provider: props.host.providerName, count: props.host.subDevices.length })}
      </Typography.Paragraph>
      <Form {...submit.formProps} layout="vertical" data-testid="move-form">
        <Form.Item name="providerId" label={t('gateway.targetProvider')} rules={[requiredRule(t)]}>
          <Select
            options={providers.options.filter((p) => p.value !== props.host.providerId)}
            loading={providers.loading}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('form.providerPlaceholder')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
};
