import { getUserSleepConfig, saveUserSleepConfigs } from '@vigil/contract/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Col, Empty, Form, Modal, Row, Table, Typography } from 'antd';
import { formatDateTime } from '../../../shared/ui/datetime.ts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { StaleNotice, listEmptyText } from '../../../shared/ui/list-state.tsx';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import type { Community } from '../facility-model.ts';
import {
  SleepSettingsFields,
  sleepDefaults,
  sleepFieldsOf,
  sleepValuesOf,
  type SleepFields,
} from '../sleep/SleepSettingsFields.tsx';
import { useCommunityMembers } from './useCommunityMembers.ts';

/**
 * Sleep settings of a community's residents: choose one resident (their saved settings are read
 * back) or several (the same settings for all), then bed-leaving watch, sleep and wake time,
 * sensitivity and mattress. Saving is all or none. They are the residents' own settings, the
 * ones BunkManage shows for their beds.
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
    if (saved.data) form.setFieldsValue(sleepFieldsOf(saved.data));
  }, [saved.data, form]);
  const initialValues = useMemo(sleepDefaults, []);

  const save = useMutation({
    mutationFn: (values: SleepFields) =>
      api(saveUserSleepConfigs, { communityId: community.id, residentIds: chosen, ...sleepValuesOf(values) }),
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
          <Form<SleepFields>
            {...submit.formProps}
            layout="vertical"
            data-testid="sleep-form"
            initialValues={initialValues}
          >
            <SleepSettingsFields mattressHint={t('sleep.mattressHint')} />
          </Form>
        </Col>
      </Row>
    </Modal>
  );
};
