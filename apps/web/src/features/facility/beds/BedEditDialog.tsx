import { CONFIRM_MOVE_KEY, failureData, updateBunk } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import { MATTRESSES, REMARK_MAX, type Bed, type Mattress } from '../facility-model.ts';
import { placeNameRules } from '../form-rules.ts';
import { MoveConflicts } from './MoveConflicts.tsx';
import { useDeviceOptions, useResidentOptions } from './useBedOptions.ts';
import { maxLengthRule } from '../../../shared/ui/form-rules.ts';

interface BedFields {
  name: string;
  mattress: Mattress;
  remark?: string;
  /** Device ID; empty: no device. */
  deviceId?: string;
  /** Resident; empty: nobody in the bed. */
  userId?: number;
}

const DEVICE_ID = /^[A-Za-z0-9-]{1,64}$/;

const pathOf = (r: {
  areaName: string | null;
  floorName: string | null;
  roomName: string | null;
  bedName?: string | null;
  bunkName?: string | null;
}) => [r.areaName, r.floorName, r.roomName, r.bedName ?? r.bunkName].filter(Boolean).join(' / ');

/**
 * Edits a bed: name, mattress, remark, its device and its resident. A device or resident linked
 * to another bed moves only after the user confirms what the server says would move.
 */
export const BedEditDialog = (props: { bed: Bed; onClose: () => void; onSaved: () => void }) => {
  const { bed } = props;
  const { t } = useTranslation('facility');
  const { modal } = App.useApp();
  const [form] = Form.useForm<BedFields>();
  const [deviceSearch, setDeviceSearch] = useState('');
  const [residentSearch, setResidentSearch] = useState('');
  const devices = useDeviceOptions(deviceSearch, bed.providerId);
  const residents = useResidentOptions(residentSearch, bed.providerId);

  const save = useMutation({
    mutationFn: ({ values, confirm }: { values: BedFields; confirm: boolean }) => {
      const deviceId = values.deviceId?.trim() || null;
      const userId = values.userId ?? null;
      // Only what changed travels: an omitted device or resident is kept as it is.
      return api(updateBunk, {
        id: bed.id,
        name: values.name.trim(),
        mattress: values.mattress,
        remark: values.remark?.trim() || null,
        ...(deviceId !== bed.deviceId ? { deviceId } : {}),
        ...(userId !== bed.userId ? { userId } : {}),
        ...(confirm ? { confirm: true } : {}),
      });
    },
    onSuccess: props.onSaved,
  });
  /** A move that takes a device or resident from another bed asks first, then saves again confirmed. */
  const submit = useFormSubmit(form, async (values: BedFields) => {
    try {
      await save.mutateAsync({ values, confirm: false });
    } catch (error) {
      const conflicts = failureData(error, CONFIRM_MOVE_KEY)?.conflicts;
      if (!conflicts) throw error;
      const agreed = await modal.confirm({
        title: t('move.title'),
        content: <MoveConflicts conflicts={conflicts} fallback={error instanceof Error ? error.message : ''} />,
        okText: t('move.ok'),
        cancelText: t('common.cancel'),
      });
      if (agreed) await save.mutateAsync({ values, confirm: true });
    }
  });

  const deviceOptions = [
    ...(bed.deviceId && !deviceSearch ? [{ value: bed.deviceId, label: bed.deviceId }] : []),
    ...(devices.data ?? [])
      .filter((d) => d.deviceId !== bed.deviceId || deviceSearch)
      .map((d) => ({
        value: d.deviceId,
        label:
          d.bunkId && d.bunkId !== bed.id
            ? t('bed.deviceOptionLinked', { device: d.deviceId, model: d.model, path: pathOf(d) })
            : t('bed.deviceOption', { device: d.deviceId, model: d.model }),
      })),
  ];
  const residentOptions = [
    ...(bed.userId && !residentSearch ? [{ value: bed.userId, label: bed.userName ?? String(bed.userId) }] : []),
    ...(residents.data ?? [])
      .filter((r) => r.id !== bed.userId || residentSearch)
      .map((r) => ({
        value: r.id,
        label:
          r.bedId && r.bedId !== bed.id
            ? t('bed.residentOptionInBed', { name: r.name, path: pathOf(r) })
            : t('bed.residentOption', { name: r.name, state: t(`residentState.${r.state}`) }),
      })),
  ];

  return (
    <Modal
      open
      title={t('bed.editTitle', { path: `${bed.areaName} / ${bed.floorName} / ${bed.roomName} / ${bed.name}` })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Form<BedFields>
        layout="vertical"
        data-testid="bed-form"
        initialValues={{
          name: bed.name,
          mattress: bed.mattress,
          remark: bed.remark ?? '',
          deviceId: bed.deviceId ?? undefined,
          userId: bed.userId ?? undefined,
        }}
        {...submit.formProps}
      >
        <Form.Item name="name" required label={t('bed.name')} rules={placeNameRules(t)}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="mattress" label={t('bed.mattress')}>
          <Radio.Group optionType="button" options={MATTRESSES.map((m) => ({ value: m, label: t(`mattress.${m}`) }))} />
        </Form.Item>
        <Form.Item
          name="deviceId"
          label={t('bed.device')}
          extra={t('bed.deviceHint')}
          rules={[{ pattern: DEVICE_ID, message: t('rule.deviceId') }]}
        >
          <Select
            data-testid="bed-device"
            allowClear
            showSearch={{ filterOption: false, onSearch: setDeviceSearch }}
            placeholder={t('bed.devicePlaceholder')}
            loading={devices.isFetching}
            options={deviceOptions}
            notFoundContent={t('bed.noDevices')}
            onChange={() => setDeviceSearch('')}
          />
        </Form.Item>
        <Form.Item name="userId" label={t('bed.resident')} extra={t('bed.residentHint')}>
          <Select
            data-testid="bed-resident"
            allowClear
            showSearch={{ filterOption: false, onSearch: setResidentSearch }}
            placeholder={t('bed.residentPlaceholder')}
            loading={residents.isFetching}
            options={residentOptions}
            notFoundContent={t('bed.noResidents')}
            onChange={() => setResidentSearch('')}
          />
        </Form.Item>
        <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, REMARK_MAX)]}>
          <Input.TextArea maxLength={REMARK_MAX} showCount rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
