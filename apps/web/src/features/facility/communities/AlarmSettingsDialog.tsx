import { saveAlarmConfig } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { Button, Checkbox, Col, Flex, Form, Modal, Radio, Row, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import {
  COMMUNITY_ALARM_TYPES,
  NOTIFY_MODES,
  RECEIVERS_MAX,
  type Community,
  type CommunityAlarmType,
  type NotifyMode,
} from '../facility-model.ts';
import { useReceiverOptions } from './useCommunityMembers.ts';

type Level = 1 | 2;

interface AlarmFields {
  levels: Record<CommunityAlarmType, Level>;
  receiverIds: number[];
  notify: NotifyMode[];
}

/** Levels as the server applies them: level 1 when listed so, else level 2 (nothing is silenced by omission). */
const levelsOf = (community: Community): Record<CommunityAlarmType, Level> => {
  const level1 = new Set(community.alarmConfig?.level1 ?? []);
  return Object.fromEntries(COMMUNITY_ALARM_TYPES.map((type) => [type, level1.has(type) ? 1 : 2])) as Record<
    CommunityAlarmType,
    Level
  >;
};

/**
 * Alarm settings of a community: each alarm type is level 1 (red) or level 2 (orange) — one
 * choice per type, so never both — the caregivers who receive the alarms, and how they are told.
 */
export const AlarmSettingsDialog = (props: { community: Community; onClose: () => void; onSaved: () => void }) => {
  const { community } = props;
  const { t } = useTranslation('facility');
  const [form] = Form.useForm<AlarmFields>();
  const receivers = useReceiverOptions(community);

  const save = useMutation({
    mutationFn: (values: AlarmFields) => {
      const levels = { ...levelsOf(community), ...values.levels };
      return api(saveAlarmConfig, {
        communityId: community.id,
        level1: COMMUNITY_ALARM_TYPES.filter((type) => levels[type] === 1),
        level2: COMMUNITY_ALARM_TYPES.filter((type) => levels[type] === 2),
        receiverIds: values.receiverIds,
        notify: values.notify,
      });
    },
    onSuccess: props.onSaved,
  });
  const submit = useFormSubmit(form, save.mutateAsync);

  const setAll = (level: Level) =>
    form.setFieldsValue({
      levels: Object.fromEntries(COMMUNITY_ALARM_TYPES.map((type) => [type, level])) as Record<
        CommunityAlarmType,
        Level
      >,
    });

  return (
    <Modal
      open
      width={820}
      title={t('alarm.title', { name: community.name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Form<AlarmFields>
        layout="vertical"
        data-testid="alarm-form"
        initialValues={{
          levels: levelsOf(community),
          receiverIds: community.alarmConfig?.receiverIds ?? [],
          notify: community.alarmConfig?.notify ?? ['page'],
        }}
        {...submit.formProps}
      >
        <Space style={{ marginBottom: 8 }} wrap>
          <Typography.Text strong>{t('alarm.levels')}</Typography.Text>
          <Typography.Text type="secondary">{t('alarm.levelsHint')}</Typography.Text>
          <Button size="small" onClick={() => setAll(1)}>
            {t('alarm.allLevel1')}
          </Button>
          <Button size="small" onClick={() => setAll(2)}>
            {t('alarm.allLevel2')}
          </Button>
        </Space>
        <Row gutter={[24, 6]}>
          {COMMUNITY_ALARM_TYPES.map((type) => (
            <Col key={type} xs={24} sm={12}>
              <Flex justify="space-between" align="center" gap={8}>
                <Typography.Text>{t(`alarmType.${type}`)}</Typography.Text>
                <Form.Item name={['levels', type]} noStyle>
                  <Radio.Group
                    size="small"
                    optionType="button"
                    buttonStyle="solid"
                    data-testid={`level-${type}`}
                    aria-label={t(`alarmType.${type}`)}
                    options={[
                      { value: 1, label: t('alarm.level1') },
                      { value: 2, label: t('alarm.level2') },
                    ]}
                  />
                </Form.Item>
              </Flex>
            </Col>
          ))}
        </Row>
        <Form.Item
          name="receiverIds"
          label={t('alarm.receivers')}
          extra={t('alarm.receiversHint')}
          rules={[{ type: 'array', max: RECEIVERS_MAX, message: t('rule.receiversMax', { max: RECEIVERS_MAX }) }]}
          style={{ marginTop: 12 }}
        >
          <Select
            mode="multiple"
            data-testid="alarm-receivers"
            showSearch={{ optionFilterProp: 'label' }}
            loading={receivers.isFetching}
            placeholder={t('alarm.receiversPlaceholder')}
            notFoundContent={t('alarm.noCaregivers')}
            options={(receivers.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.phone})` }))}
          />
        </Form.Item>
        <Form.Item
          name="notify"
          label={t('alarm.notify')}
          rules={[{ type: 'array', required: true, min: 1, message: t('rule.notifyRequired') }]}
        >
          <Checkbox.Group options={NOTIFY_MODES.map((m) => ({ value: m, label: t(`alarm.mode.${m}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
