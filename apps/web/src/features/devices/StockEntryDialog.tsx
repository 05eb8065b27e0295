import {
  DEVICE_SECRET_MAX,
  DEVICE_SECRET_MIN,
  DEVICE_SECRET_PATTERN,
  deviceStockImport,
  failureData,
} from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { typeOptions } from './device-labels.ts';
import { blankToUndefined, DEVICE_ID_MAX, DEVICE_ID_PATTERN, trimmed, type DeviceTypeOption } from './device-model.ts';
import { maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface StockFields {
  deviceId: string;
  deviceType: number;
  cipherId?: string;
  imei?: string;
  imei4g?: string;
  iccid?: string;
  firmwareType?: string;
  batch?: string;
  secret?: string;
}
const FIELDS: readonly (keyof StockFields)[] = [
  'deviceId',
  'deviceType',
  'cipherId',
  'imei',
  'imei4g',
  'iccid',
  'firmwareType',
  'batch',
  'secret',
];

/** The registry's formats (the server checks the same). */
const CIPHER_PATTERN = /^[A-Za-z0-9+/=_-]{1,128}$/;
const IMEI_PATTERN = /^[0-9]{15}$/;
const ICCID_PATTERN = /^[0-9]{18,20}[0-9A-Fa-f]?$/;
const FIRMWARE_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;

/**
 * Loads one manufactured device into the registry (deviceStockImport with a single row). The
 * server's per-row problems land under the fields they are about.
 */
export const StockEntryDialog = (props: { types: readonly DeviceTypeOption[]; onClose: () => void }) => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<StockFields>();

  const save = useMutation({
    mutationFn: (v: StockFields) =>
      api(deviceStockImport, {
        rows: [
          {
            deviceId: v.deviceId.trim(),
            deviceType: v.deviceType,
            cipherId: blankToUndefined(v.cipherId),
            imei: blankToUndefined(v.imei),
            imei4g: blankToUndefined(v.imei4g),
            iccid: blankToUndefined(v.iccid),
            firmwareType: blankToUndefined(v.firmwareType),
            batch: blankToUndefined(v.batch),
            // Sent exactly as typed (a secret is never trimmed); empty: none.
            secret: v.secret ? v.secret : undefined,
          },
        ],
      }),
    onSuccess: () => {
      void message.success(t('registry.added'));
      void queryClient.invalidateQueries({ queryKey: ['devices', 'stock'] });
      props.onClose();
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync, {
    fieldAliases: { 'rows.0.secret': ['secret'] },
    onError: (error) => {
      const problems = (failureData(error, 'deviceStock.rowErrors')?.problems ?? []).filter((p) =>
        FIELDS.includes(p.field as keyof StockFields),
      );
      if (problems.length)
        form.setFields(problems.map((p) => ({ name: p.field as keyof StockFields, errors: [p.msg] })));
      else onError(error);
    },
  });

  const optional = (name: keyof StockFields, label: string, pattern: RegExp, rule: string, max: number) => (
    <Form.Item name={name} label={label} rules={[{ pattern, message: rule }]}>
      <Input maxLength={max} autoComplete="off" />
    </Form.Item>
  );

  return (
    <Modal
      open
      title={t('registry.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Form<StockFields> layout="vertical" data-testid="stock-form" {...submit.formProps}>
        <Form.Item
          name="deviceId"
          label={t('field.deviceId')}
          extra={t('form.deviceIdRule')}
          rules={[
            requiredTextRule(t),
            { pattern: DEVICE_ID_PATTERN, transform: trimmed, message: t('form.deviceIdRule') },
            { max: DEVICE_ID_MAX, transform: trimmed, message: t('form.deviceIdRule') },
          ]}
        >
          <Input maxLength={DEVICE_ID_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item name="deviceType" label={t('field.type')} rules={[requiredRule(t)]}>
          <Select options={typeOptions(t, props.types)} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
        {optional('cipherId', t('field.cipherId'), CIPHER_PATTERN, t('registry.cipherRule'), 128)}
        {optional('imei', t('field.imei'), IMEI_PATTERN, t('registry.imeiRule'), 15)}
        {optional('imei4g', t('field.imei4g'), IMEI_PATTERN, t('registry.imeiRule'), 15)}
        {optional('iccid', t('field.iccid'), ICCID_PATTERN, t('registry.iccidRule'), 21)}
        {optional('firmwareType', t('field.firmwareType'), FIRMWARE_PATTERN, t('registry.firmwareRule'), 32)}
        <Form.Item name="batch" label={t('field.batch')} rules={[maxLengthRule(t, 64)]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="secret"
          label={t('field.secret')}
          extra={t('secret.entryNote')}
          rules={[
            {
              pattern: DEVICE_SECRET_PATTERN,
              message: t('secret.rule', { min: DEVICE_SECRET_MIN, max: DEVICE_SECRET_MAX }),
            },
          ]}
        >
          {/* No maxLength: a pasted secret cut short would silently differ from the device's. */}
          <Input.Password autoComplete="new-password" spellCheck={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
