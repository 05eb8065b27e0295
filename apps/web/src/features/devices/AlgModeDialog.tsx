import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALG_MODE_MAX, type DeviceRow } from './device-model.ts';
import { useDeviceActions } from './useDeviceActions.ts';

/** Queues an algorithm mode (0 to 255) for a sleep monitor or fall radar. */
export const AlgModeDialog = (props: { device: Pick<DeviceRow, 'deviceId' | 'algMode'>; onClose: () => void }) => {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<{ algMode: number }>();
  const { algMode } = useDeviceActions();
  const rule = t('algMode.rule', { max: ALG_MODE_MAX });
  return (
    <Modal
      open
      title={t('algMode.title', { deviceId: props.device.deviceId })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={algMode.isPending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Typography.Paragraph type="secondary">{t('command.queuedNote')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        data-testid="alg-mode-form"
        initialValues={{ algMode: props.device.algMode ?? undefined }}
        onFinish={(values) =>
          algMode.mutate({ deviceId: props.device.deviceId, algMode: values.algMode }, { onSuccess: props.onClose })
        }
      >
        <Form.Item
          name="algMode"
          label={t('algMode.label')}
          rules={[
            { required: true, message: rule },
            { type: 'integer', min: 0, max: ALG_MODE_MAX, message: rule },
          ]}
        >
          <InputNumber style={{ width: 200 }} placeholder={`0–${ALG_MODE_MAX}`} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
