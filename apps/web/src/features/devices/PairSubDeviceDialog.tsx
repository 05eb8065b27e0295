import { heSubDevicePair, heSubDevicePair2 } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Radio, Select, Tooltip, Typography } from 'antd';
import { useState } from 'react';
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
  type PairingReceipt,
} from './device-model.ts';
import { PairingProgressDialog } from './PairingProgress.tsx';
import { maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

type PairMethod = 'id' | 'button';
interface PairFields {
  method: PairMethod;
  deviceId: string;
  deviceType: number;
  seconds: number;
  name?: string;
  remark?: string;
}

/** Listening windows offered for the pairing button (the server takes 10 to 300 seconds). */
const SCAN_SECONDS = [30, 60, 120, 180] as const;
const DEFAULT_SCAN_SECONDS = 60;

/**
 * Pairs a security sensor with a gateway host, then shows the pairing's progress until the host
 * answers. By device ID (`/he/subDevicePair`: may wait for an offline host) or with the pairing
 * button (`/he/subDevicePair2`: the host listens a while; only while it is online). A sensor still
 * in stock is added under the host first (a host holds fewer than 50); `sub` pairs one already
 * under the host again.
 */
export const PairSubDeviceDialog = (props: {
  host: Pick<GatewayHostRow, 'deviceId' | 'subDevices' | 'online'>;
  types: readonly DeviceTypeOption[];
  maxSubDevices: number;
  sub?: { deviceId: string; deviceType: number };
  onClose: () => void;
}) => {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PairFields>();
  const [receipt, setReceipt] = useState<PairingReceipt | null>(null);
  const method = Form.useWatch('method', form) ?? 'id';
  const pair = useMutation({
    mutationFn: (v: PairFields) => {
      const input = {
        hostDeviceId: props.host.deviceId,
        deviceId: v.deviceId.trim(),
        deviceType: v.deviceType,
        name: blankToUndefined(v.name),
        remark: blankToUndefined(v.remark),
      };
      return v.method === 'button'
        ? api(heSubDevicePair2, { ...input, seconds: v.seconds })
        : api(heSubDevicePair, input);
    },
    onSuccess: (result) => {
      setReceipt(result);
      // A sensor from stock is now under the host; the lists show the queued pairing.
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
  });
  const submit = useFormSubmit(form, pair.mutateAsync);

  if (receipt) return <PairingProgressDialog receipt={receipt} onClose={props.onClose} />;

  const buttonRefusal = props.host.online ? null : t('gateway.pairButtonOffline');
  return (
    <Modal
      open
      title={t('gateway.pairTitle', { host: props.host.deviceId })}
      okText={t('gateway.pairStart')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      {!props.sub && (
        <Typography.Paragraph type="secondary">
          {t('gateway.capacity', { count: props.host.subDevices.length, max: props.maxSubDevices })}
        </Typography.Paragraph>
      )}
      <Form<PairFields>
        layout="vertical"
        data-testid="pair-form"
        initialValues={{
          method: 'id',
          seconds: DEFAULT_SCAN_SECONDS,
          ...(props.sub ? { deviceId: props.sub.deviceId, deviceType: props.sub.deviceType } : {}),
        }}
        {...submit.formProps}
      >
        <Form.Item
          name="method"
          label={t('gateway.pairMethod')}
          extra={t(method === 'button' ? 'gateway.pairByButtonNote' : 'gateway.pairByIdNote')}
        >
          <Radio.Group data-testid="pair-method">
            <Radio value="id">{t('gateway.pairById')}</Radio>
            <Tooltip title={buttonRefusal}>
              <Radio value="button" disabled={Boolean(buttonRefusal)}>
                {t('gateway.pairByButton')}
              </Radio>
            </Tooltip>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="deviceId"
          label={t('field.deviceId')}
          extra={props.sub ? undefined : t('form.deviceIdRule')}
          rules={[
            requiredTextRule(t),
            { pattern: DEVICE_ID_PATTERN, transform: trimmed, message: t('form.deviceIdRule') },
            { max: DEVICE_ID_MAX, transform: trimmed, message: t('form.deviceIdRule') },
          ]}
        >
          <Input maxLength={DEVICE_ID_MAX} autoComplete="off" disabled={Boolean(props.sub)} />
        </Form.Item>
        <Form.Item name="deviceType" label={t('field.type')} rules={[requiredRule(t)]}>
          <Select
            options={typeOptions(t, props.types)}
            showSearch={{ optionFilterProp: 'label' }}
            disabled={Boolean(props.sub)}
          />
        </Form.Item>
        {method === 'button' && (
          <Form.Item name="seconds" label={t('gateway.pairSeconds')}>
            <Select
              data-testid="pair-seconds"
              options={SCAN_SECONDS.map((s) => ({ value: s, label: t('gateway.seconds', { count: s }) }))}
            />
          </Form.Item>
        )}
        {!props.sub && (
          <>
            <Form.Item
              name="name"
              label={t('field.name')}
              extra={t('gateway.nameWhenAdded')}
              rules={[maxLengthRule(t, DEVICE_NAME_MAX)]}
            >
              <Input maxLength={DEVICE_NAME_MAX} />
            </Form.Item>
            <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, 200)]}>
              <Input.TextArea maxLength={200} showCount rows={2} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
};
