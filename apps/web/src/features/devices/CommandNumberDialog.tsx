import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A device command taking one whole number (reporting interval, algorithm mode): the number is
 * checked against its range before it is queued for the device.
 */
export const CommandNumberDialog = (props: {
  testId: string;
  title: string;
  label: string;
  /** The range message, shown when the field is empty or out of range. */
  rule: string;
  min: number;
  max: number;
  initial: number | null;
  suffix?: string;
  pending: boolean;
  onSave: (value: number) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<{ value: number }>();
  return (
    <Modal
      open
      title={props.title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Typography.Paragraph type="secondary">{t('command.queuedNote')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        data-testid={props.testId}
        initialValues={{ value: props.initial ?? undefined }}
        onFinish={(values) => props.onSave(values.value)}
      >
        <Form.Item
          name="value"
          label={props.label}
          rules={[
            { required: true, message: props.rule },
            { type: 'integer', min: props.min, max: props.max, message: props.rule },
          ]}
        >
          <InputNumber style={{ width: 200 }} placeholder={`${props.min}–${props.max}`} suffix={props.suffix} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
