import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';

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
  /** Queues the command; the dialog stays busy until it settles. A failure is the caller's to report. */
  onSave: (value: number) => Promise<unknown>;
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<{ value: number }>();
  const submit = useFormSubmit(form, (values: { value: number }) => props.onSave(values.value), {
    onError: () => undefined,
  });
  return (
    <Modal
      open
      title={props.title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
    >
      <Typography.Paragraph type="secondary">{t('command.queuedNote')}</Typography.Paragraph>
      <Form
        {...submit.formProps}
        layout="vertical"
        data-testid={props.testId}
        initialValues={{ value: props.initial ?? undefined }}
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
