import { CONSTANTS } from '@vigil/contract/browser';
import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceRow } from './device-model.ts';
import { useDeviceActions } from './useDeviceActions.ts';

const MIN = CONSTANTS.reportingIntervalMin;
const MAX = CONSTANTS.reportingIntervalMax;

/** Queues a new reporting interval (1 to 254 seconds) for a device. */
export const IntervalDialog = (props: {
  device: Pick<DeviceRow, 'deviceId' | 'reportInterval'>;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<{ interval: number }>();
  const { interval } = useDeviceActions();
  return (
    <Modal
      open
      title={t('interval.title', { deviceId: props.device.deviceId })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={interval.isPending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Typography.Paragraph type="secondary">{t('command.queuedNote')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        data-testid="interval-form"
        initialValues={{ interval: props.device.reportInterval ?? undefined }}
        onFinish={(values) =>
          interval.mutate({ deviceId: props.device.deviceId, interval: values.interval }, { onSuccess: props.onClose })
        }
      >
        <Form.Item
          name="interval"
          label={t('interval.label')}
          rules={[
            { required: true, message: t('interval.rule', { min: MIN, max: MAX }) },
            { type: 'integer', min: MIN, max: MAX, message: t('interval.rule', { min: MIN, max: MAX }) },
          ]}
        >
          <InputNumber style={{ width: 200 }} placeholder={`${MIN}–${MAX}`} suffix={t('interval.seconds')} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
