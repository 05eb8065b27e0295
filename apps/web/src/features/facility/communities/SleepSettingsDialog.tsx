import { getUserSleepConfig, saveUserSleepConfigs } from '@vigil/contract/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Col, Empty, Form, Modal, Radio, Row, Table, TimePicker, Typography } from 'antd';
import { formatDateTime } from '../../../shared/ui/datetime.ts';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { StaleNotice, listEmptyText } from '../../../shared/ui/list-state.tsx';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import {
  LEAVE_BED_MODES,
  MATTRESSES,
  SENSITIVITIES,
  type Community,
  type LeaveBedMode,
  type Mattress,
  type Sensitivity,
} from '../facility-model.ts';
import { useCommunityMembers } from './useCommunityMembers.ts';

interface SleepFields {
  leaveBedMode: LeaveBedMode;
  sleepTime?: Dayjs | null;
  wakeTime?: Dayjs | null;
  sensitivity: Sensitivity;
  mattress: Mattress;
}

const CLOCK = 'HH:mm';
/** A time of day from HH:mm (no parsing plugin needed). */
const clock = (hhmm: string): Dayjs => {
  const [hour = 0, minute = 0] = hhmm.split(':').map(Number);
  return dayjs().hour(hour).minute(minute).second(0).millisecond(0);
};
const DEFAULTS: SleepFields = {
  leaveBedMode: 'sleepTime',
  sleepTime: clock('21:00'),
  wakeTime: clock('07:00'),
  sensitivity: 'medium',
  mattress: 'sponge',
};

/**
 * Sleep settings of a community's residents: choose one resident (their saved settings are read
 * back) or several (the same settings for all), then bed-leaving watch, sleep and wake time,
 * sensitivity and mattress. Saving is all or none.
 */
export const SleepSettingsDialog = (props: { community: Community; onClose: () => void; onSaved: () => void }) => {
  const { community } = props;
  const { t } = useTranslation('facility');
  const [form] = Form.useForm<SleepFields>();
  const [chosen, setChosen] = useState<number[]>([]);
  const [noneChosen, setNoneChosen] = useState(false);
  const members = useCommunityMembers(community);
  const membersEmptyText = listEmptyText(members);
  const single = chosen.length === 1 ? chosen[0] : undefined;

  const saved = useQuery({
    queryKey: ['communities', 'sleep', community.id, single],
    queryFn: () => api(getUserSleepConfig, { communityId: community.id, residentId: single ?? 0 }),
    enabled: single !== undefined,
  });
  useEffect(() => {
    if (!saved.data) return;
    form.setFieldsValue({
      leaveBedMode: saved.data.leaveBedMode,
      sleepTime: clock(saved.data.sleepTime),
      wakeTime: clock(saved.data.wakeTime),
      sensitivity: saved.data.sensitivity,
      mattress: saved.data.mattress,
    });
  }, [saved.data, form]);

  const save = useMutation({
    mutationFn: (values: SleepFields) =>
      api(saveUserSleepConfigs, {
        communityId: community.id,
        residentIds: chosen,
        leaveBedMode: values.leaveBedMode,
        sleepTime: values.sleepTime?.format(CLOCK) ?? '',
        wakeTime: values.wakeTime?.format(CLOCK) ?? '',
        sensitivity: values.sensitivity,
        mattress: values.mattress,
      }),
    onSuccess: props.onSaved,
  });

  const submit = useFormSubmit(form, async (values: SleepFields) => {
    if (!chosen.length) {
      setNoneChosen(true);
      return false;
    }
    await save.mutateAsync(values);
    return true;
  });

  const state =
    single === undefined
      ? chosen.length > 1
        ? t('sleep.several', { count: chosen.length })
        : null
      : saved.data
        ? t('sleep.savedAt', { time: formatDateTime(saved.data.updateTime) })
        : saved.isSuccess
          ? t('sleep.neverSaved')
          : null;

  return (
    <Modal
      open
      width={860}
      title={t('sleep.title', { name: community.name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      okButtonProps={{ disabled: !members.data?.length }}
      mask={{ closable: false }}
    >
      <Row gutter={24}>
        <Col xs={24} md={11}>
          <Typography.Text strong>{t('sleep.members')}</Typography.Text>
          <StaleNotice query={members} />
          <Table
            data-testid="sleep-members"
            size="small"
            rowKey="id"
            loading={members.isFetching}
            dataSource={members.data ?? []}
            pagination={{ pageSize: 8, hideOnSinglePage: true }}
            locale={{ emptyText: membersEmptyText ?? <Empty description={t('sleep.noMembers')} /> }}
            rowSelection={{
              selectedRowKeys: chosen,
              onChange: (keys) => {
                setChosen(keys.map(Number));
                setNoneChosen(false);
              },
            }}
            columns={[
              { title: t('sleep.resident'), dataIndex: 'name' },
              {
                title: t('sleep.bed'),
                key: 'bed',
                render: (_, r) => [r.areaName, r.floorName, r.roomName, r.bedName].filter(Boolean).join(' / ') || '—',
              },
            ]}
          />
          {noneChosen && (
            <Alert type="error" showIcon title={t('rule.chooseResidents')} data-testid="sleep-none-chosen" />
          )}
        </Col>
        <Col xs={24} md={13}>
          {state && <Alert type="info" title={state} style={{ marginBottom: 12 }} />}
          <Form<SleepFields> {...submit.formProps} layout="vertical" data-testid="sleep-form" initialValues={DEFAULTS}>
            <Form.Item name="leaveBedMode" label={t('sleep.leaveBed')}>
              <Radio.Group
                optionType="button"
                options={LEAVE_BED_MODES.map((m) => ({ value: m, label: t(`sleep.mode.${m}`) }))}
              />
            </Form.Item>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item
                  name="sleepTime"
                  label={t('sleep.sleepTime')}
                  rules={[{ required: true, message: t('rule.timeRequired') }]}
                >
                  <TimePicker format={CLOCK} needConfirm={false} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="wakeTime"
                  label={t('sleep.wakeTime')}
                  dependencies={['sleepTime']}
                  rules={[
                    { required: true, message: t('rule.timeRequired') },
                    ({ getFieldValue }) => ({
                      validator: (_, value?: Dayjs | null) => {
                        const sleep = getFieldValue('sleepTime') as Dayjs | null | undefined;
                        return value && sleep && value.format(CLOCK) === sleep.format(CLOCK)
                          ? Promise.reject(new Error(t('rule.sleepWakeSame')))
                          : Promise.resolve();
                      },
                    }),
                  ]}
                >
                  <TimePicker format={CLOCK} needConfirm={false} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="sensitivity" label={t('sleep.sensitivity')}>
              <Radio.Group
                optionType="button"
                options={SENSITIVITIES.map((s) => ({ value: s, label: t(`sleep.level.${s}`) }))}
              />
            </Form.Item>
            <Form.Item name="mattress" label={t('bed.mattress')}>
              <Radio.Group
                optionType="button"
                options={MATTRESSES.map((m) => ({ value: m, label: t(`mattress.${m}`) }))}
              />
            </Form.Item>
          </Form>
        </Col>
      </Row>
    </Modal>
  );
};
