import { bedSleepSetting, saveBedSleepSetting } from '@vigil/contract/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { formatDateTime } from '../../../shared/ui/datetime.ts';
import { ListError } from '../../../shared/ui/list-state.tsx';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import type { Bed } from '../facility-model.ts';
import {
  SleepSettingsFields,
  sleepDefaults,
  sleepFieldsOf,
  sleepValuesOf,
  type SleepFields,
} from '../sleep/SleepSettingsFields.tsx';

/** A bed with its resident: what the dialog saves settings for. */
export type OccupiedBed = Bed & { userId: number };

export const isOccupied = (bed: Bed): bed is OccupiedBed => bed.userId !== null;

/**
 * Sleep settings of the residents of one or several beds (BunkManage). For one resident their
 * current settings are read first (the defaults, with the bed's own mattress, when none were
 * saved); a batch starts from the defaults, and the same settings are saved for everyone, all or
 * none. The mattress becomes each bed's mattress too.
 */
export const BedSleepDialog = (props: {
  beds: readonly OccupiedBed[];
  onClose: () => void;
  onSaved: (count: number) => void;
}) => {
  const { t } = useTranslation('facility');
  const [form] = Form.useForm<SleepFields>();
  const single = props.beds.length === 1 ? props.beds[0] : undefined;
  const initialValues = useMemo(sleepDefaults, []);

  const current = useQuery({
    queryKey: ['facility', 'sleep', single?.userId],
    queryFn: () => api(bedSleepSetting, { userId: single?.userId ?? 0 }),
    enabled: single !== undefined,
  });
  const bedMattress = single?.mattress;
  useEffect(() => {
    const setting = current.data;
    if (!setting) return;
    // Nothing saved yet: keep the mattress the bed already has rather than overwrite it with the default.
    const mattress = setting.source === 'default' && bedMattress ? bedMattress : setting.mattress;
    form.setFieldsValue(sleepFieldsOf({ ...setting, mattress }));
  }, [current.data, bedMattress, form]);

  const save = useMutation({
    mutationFn: (values: SleepFields) =>
      api(saveBedSleepSetting, { userIds: props.beds.map((b) => b.userId), ...sleepValuesOf(values) }),
  });
  const submit = useFormSubmit(form, async (values: SleepFields) => {
    const { count } = await save.mutateAsync(values);
    props.onSaved(count);
  });

  const loading = single !== undefined && !current.data;
  const state = single
    ? current.data &&
      (current.data.source === 'resident' && current.data.updateTime
        ? t('sleep.savedAt', { time: formatDateTime(current.data.updateTime) })
        : t('sleep.neverSavedBed'))
    : t('sleep.batchIntro', { count: props.beds.length });

  return (
    <Modal
      open
      width={600}
      title={
        single ? t('sleep.title', { name: single.userName ?? '' }) : t('sleep.batchTitle', { count: props.beds.length })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      okButtonProps={{ disabled: loading }}
      mask={{ closable: false }}
    >
      <div data-testid="bed-sleep-dialog">
        {single ? (
          <Typography.Paragraph type="secondary">
            {`${single.areaName} / ${single.floorName} / ${single.roomName} / ${single.name}`}
          </Typography.Paragraph>
        ) : (
          <Space size={[4, 4]} wrap style={{ marginBottom: 12 }} data-testid="sleep-chosen">
            {props.beds.map((b) => (
              <Tag key={b.id}>{`${b.userName ?? ''} · ${b.roomName} / ${b.name}`}</Tag>
            ))}
          </Space>
        )}
        {state && <Alert type="info" showIcon title={state} style={{ marginBottom: 12 }} />}
        {single && current.isError && !current.data ? (
          <ListError query={current} />
        ) : (
          <Spin spinning={loading}>
            <Form<SleepFields>
              {...submit.formProps}
              layout="vertical"
              data-testid="bed-sleep-form"
              initialValues={initialValues}
            >
              <SleepSettingsFields mattressHint={t('sleep.mattressHint')} />
            </Form>
          </Spin>
        )}
      </div>
    </Modal>
  );
};
