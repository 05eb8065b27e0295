import { heAddHost, insertDevice, updateDevice, type DeviceKind } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../shared/api/client.ts';
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
import { pathOfPlace, placeModeOf, placeOfPath, type PlaceMode } from './device-place.ts';
import { PlacePicker, WearerPicker } from './PlacePicker.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
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
  /** Area, floor, room and bed as far as picked (a room or a bed for most devices). */
  place?: number[];
  /** The resident wearing a badge, the caregiver wearing a nurse watch. */
  wearer?: number | null;
}

const REMARK_MAX = 200;

export interface DeviceFormDialogProps {
  /** The device edited; absent to register a new one. */
  device?: Pick<
    DeviceRow,
    | 'deviceId'
    | 'deviceType'
    | 'kind'
    | 'name'
    | 'commMode'
    | 'remark'
    | 'providerId'
    | 'placeKind'
    | 'areaId'
    | 'floorId'
    | 'roomId'
    | 'bunkId'
    | 'userId'
    | 'userName'
    | 'caregiverId'
    | 'caregiverName'
  >;
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
  const toast = useApiError();
  const pickedType = Form.useWatch('deviceType', form);
  const pickedProvider = Form.useWatch('providerId', form);
  const kind: DeviceKind | undefined = props.gatewayHost
    ? 'gateway_host'
    : (editing?.kind ?? props.types.find((type) => type.code === pickedType)?.kind);
  const mode: PlaceMode | undefined = kind ? placeModeOf(kind) : undefined;
  /** The wire's place of the form: sent whole, so an edit replaces (or clears) the place. */
  const placeInput = (values: DeviceFields) => ({
    ...placeOfPath(mode === 'place' ? values.place : undefined),
    userId: mode === 'resident' ? (values.wearer ?? null) : null,
    caregiverId: mode === 'caregiver' ? (values.wearer ?? null) : null,
  });

  useEffect(() => {
    if (editing) {
      form.setFieldsValue({
        deviceId: editing.deviceId,
        deviceType: editing.deviceType,
        name: editing.name ?? undefined,
        commMode: editing.commMode ?? undefined,
        remark: editing.remark ?? undefined,
        place: pathOfPlace(editing),
        wearer:
          editing.placeKind === 'caregiver'
            ? editing.caregiverId
            : editing.placeKind === 'resident'
              ? editing.userId
              : null,
      });
    } else if (props.types.length === 1) form.setFieldsValue({ deviceType: props.types[0]?.code });
    if (!editing && props.defaultProviderId !== undefined) form.setFieldsValue({ providerId: props.defaultProviderId });
  }, [editing, form, props.types, props.defaultProviderId]);

  const save = useMutation({
    mutationFn: async (values: DeviceFields) => {
      const name = blankToUndefined(values.name);
      const remark = blankToUndefined(values.remark);
      // Sleep monitors and fall radars are placed by their bed link: the place fields refuse them.
      const place = mode && mode !== 'bedLink' ? placeInput(values) : {};
      if (editing) {
        await api(updateDevice, {
          deviceId: editing.deviceId,
          name: name ?? null,
          commMode: values.commMode ?? null,
          remark: remark ?? null,
          ...place,
        });
        return;
      }
      const added = Object.fromEntries(Object.entries(place).filter(([, id]) => id !== null)) as Record<string, number>;
      const common = {
        ...added,
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
    // The place refusals name no one field of the call (a room, a bed, an area …): they go on the picker.
    onError: (error) => {
      if (error instanceof ApiError && error.msgKey?.startsWith('device.place') && mode && mode !== 'bedLink') {
        const name = mode === 'place' ? 'place' : 'wearer';
        form.setFields([{ name, errors: [error.message] }]);
        form.scrollToField(name);
      } else toast(error);
    },
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
        {mode === 'place' && (
          <Form.Item name="place" label={t('field.placeAny')} extra={t('place.pickerHint')}>
            <PlacePicker providerId={editing?.providerId ?? pickedProvider} />
          </Form.Item>
        )}
        {(mode === 'resident' || mode === 'caregiver') && (
          <Form.Item name="wearer" label={t(mode === 'resident' ? 'place.wornByResident' : 'place.wornByCaregiver')}>
            <WearerPicker
              who={mode}
              current={
                mode === 'resident'
                  ? editing?.userId && editing.userName && editing.placeKind === 'resident'
                    ? { id: editing.userId, name: editing.userName }
                    : null
                  : editing?.caregiverId && editing.caregiverName
                    ? { id: editing.caregiverId, name: editing.caregiverName }
                    : null
              }
            />
          </Form.Item>
        )}
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
