import { firmwarePost } from '@vigil/contract/browser';
import { Alert, App, Checkbox, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import {
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_ROLLOUT_STAGES,
  deviceTypeLabel,
  parseStages,
  type Firmware,
} from './firmware-model.ts';

interface FullReleaseFields {
  stages: string;
  failureThreshold: number;
  forceOccupied: boolean;
}

const defaults = (): FullReleaseFields => ({
  stages: DEFAULT_ROLLOUT_STAGES.join(', '),
  failureThreshold: DEFAULT_FAILURE_THRESHOLD,
  forceOccupied: false,
});

/**
 * Releases a package to every device of its type in the caller's scope, in stages (cumulative
 * shares, rising, ending at 100) that pause by themselves when a stage's failures pass the
 * threshold. Upgrading a device on an occupied bed interrupts its monitoring, so that waits for the
 * bed's next free window unless the administrator asks otherwise.
 */
export const FullReleaseDialog = ({
  pkg,
  onClose,
  onReleased,
}: {
  pkg: Firmware | null;
  onClose: () => void;
  onReleased: () => void;
}) => {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const [form] = Form.useForm<FullReleaseFields>();
  const stagesText = Form.useWatch('stages', form);
  const forced = Form.useWatch('forceOccupied', form);
  const preview = parseStages(stagesText ?? '');

  useEffect(() => {
    if (pkg) form.setFieldsValue(defaults());
  }, [pkg, form]);

  const save = async (values: FullReleaseFields) => {
    const stages = parseStages(values.stages);
    if (!pkg || !stages) return false;
    await api(firmwarePost, {
      id: pkg.id,
      release: 'full',
      stages,
      failureThreshold: values.failureThreshold,
      forceOccupied: values.forceOccupied,
    });
    void message.success(t('done.released'));
    onReleased();
    onClose();
    return true;
  };
  const submit = useFormSubmit(form, save);

  return (
    <Modal
      open={pkg !== null}
      title={pkg ? t('full.title', { version: pkg.version }) : ''}
      okText={t('full.submit')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(onClose)}
      okButtonProps={{ 'data-testid': 'full-release-submit' }}
      width={560}
      forceRender
    >
      {pkg && (
        <Typography.Paragraph>
          {t('full.intro', { type: deviceTypeLabel(t, pkg.deviceType) })}
          {pkg.state === 'grey' && ` ${t('full.afterGrey')}`}
        </Typography.Paragraph>
      )}
      <Form<FullReleaseFields>
        {...submit.formProps}
        layout="vertical"
        initialValues={defaults()}
        data-testid="full-release-form"
      >
        <Form.Item
          name="stages"
          label={t('full.stages')}
          required
          extra={
            preview
              ? preview.map((percent, i) => t('full.stagePreview', { stage: i + 1, percent })).join(' → ')
              : t('full.stagesRule')
          }
          rules={[
            {
              validator: (_, value: string | undefined) =>
                parseStages(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t('full.stagesRule'))),
            },
          ]}
        >
          <Input placeholder="5, 25, 100" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="failureThreshold"
          label={t('full.threshold')}
          extra={t('full.thresholdHint')}
          rules={[{ required: true, type: 'integer', min: 1, max: 100, message: t('full.thresholdRule') }]}
        >
          <InputNumber min={1} max={100} precision={0} suffix="%" style={{ width: 140 }} />
        </Form.Item>
        <Alert type="info" showIcon title={t('full.occupiedWarning')} style={{ marginBottom: 12 }} />
        <Form.Item name="forceOccupied" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox data-testid="full-release-force">{t('full.forceOccupied')}</Checkbox>
        </Form.Item>
        {forced && (
          <Alert type="warning" showIcon title={t('full.forceWarning')} data-testid="full-release-force-warning" />
        )}
      </Form>
    </Modal>
  );
};
