import { heAddHost, insertDevice, updateDevice } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import {
  blankToUndefined,
  COMM_MODES,
  DEVICE_ID_MAX,
  DEVICE_ID_PATTERN,
  trimmed,
  DEVICE_NAME_MAX,
  type CommMode,
  type DeviceRow,
  type DeviceTypeOption,
} from './device-model.ts';
import { typeOptions } from './device-labels.ts';
import { useProviderOptions } from './useProviderOptions.ts';
import { maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface DeviceFields {
  deviceId: string;
  /** Required by the form except for a gateway host, whose type is fixed. */
  deviceType: number;
  name?: string;
  commMode?: CommMode;
  remark?: string;
  providerId?: number;
}

const REMARK_MAX = 200;

export interface DeviceFormDialogProps {
  /** The device edited; absent to register a new one. */
  device?: Pick<DeviceRow, 'deviceId' | 'deviceType' | 'name' | 'commMode' | 'remark'>;
  /** Registering a gateway host (heAddHost: its type is fixed) rather than a device of `types`. */
  gatewayHost?: boolean;
  /** Types a new device may have: the page's kinds. */
  types: readonly DeviceTypeOption[];
  /** Platform administrators pick the provider the device is added to. */
  chooseProvider: boolean;
  defaultProviderId?: number;
  onClose: () => void;
}

/**
 * Registers a device from the registry (insertDevice, or heAddHost for a gateway host) or edits
 * one (updateDevice). A refused save keeps the dialog open with everything typed, and puts the
 * server's reason under the field it is about.
 */
export const DeviceFormDialog = (props: DeviceFormDialogProps) => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<DeviceFields>();
  const editing = props.device;
  const providers = useProviderOptions(props.chooseProvider && !editing);

  useEffect(() => {
    if (editing) {
      form.setFieldsValue({
        deviceId: editing.deviceId,
        deviceType: editing.deviceType,
        name: editing.name ?? undefined,
        commMode: editing.commMode ?? undefined,
        remark: editing.remark ?? undefined,
      });
    } else if (props.types.length === 1) form.setFieldsValue({ deviceType: props.types[0]?.code });
    if (!editing && props.defaultProviderId !== undefined) form.setFieldsValue({ providerId: props.defaultProviderId });
  }, [editing, form, props.types, props.defaultProviderId]);

  const save = useMutation({
    mutationFn: async (values: DeviceFields) => {
      const name = blankToUndefined(values.name);
      const remark = blankToUndefined(values.remark);
      if (editing) {
        await api(updateDevice, {
          deviceId: editing.deviceId,
          name: name ?? null,
          commMode: values.commMode ?? null,
          remark: remark ?? null,
        });
        return;
      }
      const common = {
        deviceId: values.deviceId.trim(),
        name,
        commMode: values.commMode,
        remark,
        providerId: values.providerId,
      };
      if (props.gatewayHost) await api(heAddHost, common);
      else await api(insertDevice, { ...common, deviceType: values.deviceType });
    },
    onSuccess: () => {
      void message.success(t(editing ? 'form.saved' : 'form.registered'));
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      props.onClose();
    },
  });
  // A gateway host's type is fixed, not a field: a refusal of its type is about the ID typed.
  const submit = useFormSubmit(form, save.mutateAsync, {
    fieldAliases: props.gatewayHost ? { deviceType: ['deviceId'] } : undefined,
  });

  const title = editing ? 'form.editTitle' : props.gatewayHost ? 'gateway.addHost' : 'form.registerTitle';
  return (
    <Modal
      open
      title={t(title)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Form<DeviceFields> layout="vertical" data-testid="device-form" {...submit.formProps}>
        <Form.Item
          name="deviceId"
          label={t('field.deviceId')}
          extra={editing ? undefined : t('form.deviceIdRule')}
          rules={[
            requiredTextRule(t),
            { pattern: DEVICE_ID_PATTERN, transform: trimmed, message: t('form.deviceIdRule') },
            { max: DEVICE_ID_MAX, transform: trimmed, message: t('form.deviceIdRule') },
          ]}
        >
          <Input maxLength={DEVICE_ID_MAX} disabled={Boolean(editing)} autoComplete="off" />
        </Form.Item>
        {!props.gatewayHost && (
          <Form.Item name="deviceType" label={t('field.type')} rules={[requiredRule(t)]}>
            <Select
              disabled={Boolean(editing)}
              options={typeOptions(t, props.types)}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('form.typePlaceholder')}
            />
          </Form.Item>
        )}
        {props.chooseProvider && !editing && (
          <Form.Item name="providerId" label={t('field.provider')} rules={[requiredRule(t)]}>
            <Select
              options={providers.options}
              loading={providers.loading}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('form.providerPlaceholder')}
            />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('field.name')} rules={[maxLengthRule(t, DEVICE_NAME_MAX)]}>
          <Input maxLength={DEVICE_NAME_MAX} />
        </Form.Item>
        <Form.Item name="commMode" label={t('field.commMode')} extra={editing ? undefined : t('form.commModeHint')}>
          <Select allowClear options={COMM_MODES.map((m) => ({ value: m, label: t(`commMode.${m}`) }))} />
        </Form.Item>
        <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, REMARK_MAX)]}>
          <Input.TextArea maxLength={REMARK_MAX} showCount rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
