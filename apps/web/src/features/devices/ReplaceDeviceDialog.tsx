import { heReplaceDevice } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, trimmed } from './device-model.ts';
import { requiredTextRule } from '../../shared/ui/form-rules.ts';

/**
 * Swaps a gateway host or a sub-device for a registry device of the same type that is in stock
 * (heReplaceDevice). Name and remark carry over; a host's sub-devices move to the new host and
 * must pair again; the old device returns to stock.
 */
export const ReplaceDeviceDialog = (props: {
  device: { deviceId: string; model: string };
  host: boolean;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ newDeviceId: string }>();
  const replace = useMutation({
    mutationFn: (newDeviceId: string) => api(heReplaceDevice, { deviceId: props.device.deviceId, newDeviceId }),
    onSuccess: (result) => {
      if (result.telecom === 'failed') {
        void message.warning(
          t('gateway.replacedTelecomFailed', { deviceId: result.deviceId, reason: result.telecomMsg ?? '' }),
        );
      } else void message.success(t('gateway.replaced', { old: props.device.deviceId, deviceId: result.deviceId }));
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      props.onClose();
    },
  });
  // The refusals of the new device (not in stock, wrong type) name the wire's deviceId.
  const submit = useFormSubmit(form, (v: { newDeviceId: string }) => replace.mutateAsync(v.newDeviceId.trim()), {
    fieldAliases: { deviceId: ['newDeviceId'], deviceType: ['newDeviceId'] },
  });
  return (
    <Modal
      open
      title={t('gateway.replaceTitle', { deviceId: props.device.deviceId })}
      okText={t('gateway.replace')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">
        {t(props.host ? 'gateway.replaceHostNote' : 'gateway.replaceSubNote', { model: props.device.model })}
      </Typography.Paragraph>
      <Form layout="vertical" data-testid="replace-form" {...submit.formProps}>
        <Form.Item
          name="newDeviceId"
          label={t('gateway.newDeviceId')}
          extra={t('form.deviceIdRule')}
          rules={[
            requiredTextRule(t),
            { pattern: DEVICE_ID_PATTERN, transform: trimmed, message: t('form.deviceIdRule') },
            { max: DEVICE_ID_MAX, transform: trimmed, message: t('form.deviceIdRule') },
            {
              validator: (_, value: string | undefined) =>
                value?.trim().toUpperCase() === props.device.deviceId.toUpperCase()
                  ? Promise.reject(new Error(t('gateway.sameDevice')))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input maxLength={DEVICE_ID_MAX} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
