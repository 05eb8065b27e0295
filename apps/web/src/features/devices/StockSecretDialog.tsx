import {
  DEVICE_SECRET_MAX,
  DEVICE_SECRET_MIN,
  DEVICE_SECRET_PATTERN,
  deviceStockSetSecret,
} from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import type { StockRow } from './device-model.ts';
import { requiredTextRule } from '../../shared/ui/form-rules.ts';

type Mode = 'generate' | 'enter';
interface SecretFields {
  mode: Mode;
  secret?: string;
}

/**
 * Sets or rotates the secret a registry device connects with (its MQTT password). The
 * administrator types one (checked against the contract's rule) or lets the server generate one.
 * The answer is the only time the secret is readable: it is shown once, read-only and copyable,
 * and forgotten when the dialog closes (the dialog is unmounted, its state with it).
 */
export const StockSecretDialog = (props: { entry: Pick<StockRow, 'deviceId' | 'hasSecret'>; onClose: () => void }) => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SecretFields>();
  const mode = Form.useWatch('mode', form) ?? 'generate';
  /** The secret the server answered: on screen until the dialog closes, never stored elsewhere. */
  const [shown, setShown] = useState<string | null>(null);
  const { deviceId, hasSecret } = props.entry;

  const save = useMutation({
    mutationFn: (v: SecretFields) =>
      api(deviceStockSetSecret, v.mode === 'enter' && v.secret ? { deviceId, secret: v.secret } : { deviceId }),
    onSuccess: (answer) => {
      setShown(answer.secret);
      void queryClient.invalidateQueries({ queryKey: ['devices', 'stock'] });
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync);

  const copy = () => {
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!shown || !clipboard) {
      void message.error(t('secret.copyFailed'));
      return;
    }
    clipboard.writeText(shown).then(
      () => void message.success(t('secret.copied')),
      () => void message.error(t('secret.copyFailed')),
    );
  };

  if (shown !== null) {
    return (
      <Modal
        open
        title={t('secret.doneTitle', { deviceId })}
        // Closing is a deliberate click: the secret cannot be shown again.
        mask={{ closable: false }}
        keyboard={false}
        onCancel={props.onClose}
        footer={
          <Button type="primary" onClick={props.onClose} data-testid="stock-secret-close">
            {t('common.close')}
          </Button>
        }
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={t('secret.shownOnce')} data-testid="stock-secret-warning" />
          <Space.Compact style={{ width: '100%' }}>
            <Input
              readOnly
              value={shown}
              aria-label={t('field.secret')}
              data-testid="stock-secret-value"
              style={{ fontFamily: 'monospace' }}
              onFocus={(event) => event.target.select()}
            />
            <Button onClick={copy} data-testid="stock-secret-copy">
              {t('common.copy')}
            </Button>
          </Space.Compact>
          <Typography.Text type="secondary">{t('secret.usage', { deviceId })}</Typography.Text>
        </Space>
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t(hasSecret ? 'secret.rotateTitle' : 'secret.setTitle', { deviceId })}
      okText={t(mode === 'generate' ? 'secret.generateSubmit' : 'secret.setSubmit')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      {hasSecret && <Alert type="info" showIcon title={t('secret.rotateNote')} style={{ marginBottom: 16 }} />}
      <Form<SecretFields>
        layout="vertical"
        data-testid="stock-secret-form"
        initialValues={{ mode: 'generate' }}
        {...submit.formProps}
      >
        <Form.Item name="mode" label={t('secret.how')}>
          <Radio.Group
            data-testid="stock-secret-mode"
            options={[
              { value: 'generate', label: t('secret.generate') },
              { value: 'enter', label: t('secret.enter') },
            ]}
          />
        </Form.Item>
        {mode === 'enter' ? (
          <Form.Item
            name="secret"
            label={t('field.secret')}
            extra={t('secret.rule', { min: DEVICE_SECRET_MIN, max: DEVICE_SECRET_MAX })}
            rules={[
              requiredTextRule(t),
              {
                pattern: DEVICE_SECRET_PATTERN,
                message: t('secret.rule', { min: DEVICE_SECRET_MIN, max: DEVICE_SECRET_MAX }),
              },
            ]}
          >
            {/* No maxLength: a pasted secret cut short would silently differ from the device's. */}
            <Input.Password autoComplete="new-password" spellCheck={false} />
          </Form.Item>
        ) : (
          <Typography.Paragraph type="secondary">{t('secret.generateNote')}</Typography.Paragraph>
        )}
      </Form>
    </Modal>
  );
};
