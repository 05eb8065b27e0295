import { heInsertDevice } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { typeOptions } from './device-labels.ts';
import {
  blankToUndefined,
  DEVICE_ID_MAX,
  DEVICE_ID_PATTERN,
  trimmed,
  DEVICE_NAME_MAX,
  type DeviceTypeOption,
  type GatewayHostRow,
} from './device-model.ts';

interface PairFields {
  deviceId: string;
  deviceType: number;
  name?: string;
  remark?: string;
}

/** Adds a security sensor under a gateway host (heInsertDevice); a host holds fewer than 50. */
export const PairSubDeviceDialog = (props: {
  host: Pick<GatewayHostRow, 'deviceId' | 'subDevices'>;
  types: readonly DeviceTypeOption[];
  maxSubDevices: number;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PairFields>();
  const pair = useMutation({
    mutationFn: (v: PairFields) =>
      api(heInsertDevice, {
        hostDeviceId: props.host.deviceId,
        deviceId: v.deviceId.trim(),
        deviceType: v.deviceType,
        name: blankToUndefined(v.name),
        remark: blankToUndefined(v.remark),
      }),
    onSuccess: (result) => {
      void message.success(t('gateway.paired', { deviceId: result.deviceId, host: props.host.deviceId }));
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      props.onClose();
    },
  });
  const submit = useFormSubmit(form, pair.mutateAsync);
  return (
    <Modal
      open
      title={t('gateway.pairTitle', { host: props.host.deviceId })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">
        {t('gateway.capacity', { count: props.host.subDevices.length, max: props.maxSubDevices })}
      </Typography.Paragraph>
      <Form<PairFields> layout="vertical" data-testid="pair-form" {...submit.formProps}>
        <Form.Item
          name="deviceId"
          label={t('field.deviceId')}
          extra={t('form.deviceIdRule')}
          rules={[
            { required: true, whitespace: true, message: t('form.deviceIdRequired') },
            { pattern: DEVICE_ID_PATTERN, transform: trimmed, message: t('form.deviceIdRule') },
            { max: DEVICE_ID_MAX, transform: trimmed, message: t('form.deviceIdRule') },
          ]}
        >
          <Input maxLength={DEVICE_ID_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="deviceType"
          label={t('field.type')}
          rules={[{ required: true, message: t('form.typeRequired') }]}
        >
          <Select options={typeOptions(t, props.types)} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('field.name')}
          rules={[{ max: DEVICE_NAME_MAX, message: t('form.nameRule', { max: DEVICE_NAME_MAX }) }]}
        >
          <Input maxLength={DEVICE_NAME_MAX} />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('common.remark')}
          rules={[{ max: 200, message: t('form.remarkRule', { max: 200 }) }]}
        >
          <Input.TextArea maxLength={200} showCount rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
