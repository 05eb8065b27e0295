import {
  ALARM_NOTIFY_MODES,
  queryNursingList,
  saveBedAlarmSetting,
  type BedReceivers,
  type EndpointResult,
  type bedAlarmSetting,
} from '@vigil/contract/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { reloadCalls } from '../../shared/api/use-call.ts';
import { App, Button, Card, Checkbox, Flex, Form, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';

const NS = 'bed-alarm';
/** The most receivers one bed names (the contract's limit). */
const RECEIVERS_MAX = 100;

type Setting = EndpointResult<typeof bedAlarmSetting>;
type Mode = 'community' | 'own';
interface ReceiverFields {
  mode: Mode;
  receiverIds: number[];
  notify: BedReceivers['notify'];
}

/** Enabled caregivers of the resident's provider: who may receive the bed's alarms. */
const useCaregiverOptions = (providerId: number) =>
  useQuery({
    queryKey: ['bedAlarmSetting', 'receivers', providerId],
    queryFn: async () => (await api(queryNursingList, { pageNum: 1, pageSize: 1000, enabled: true })).rows,
    select: (rows) => rows.filter((c) => c.providerId === providerId),
  });

const fieldsOf = (setting: Setting): ReceiverFields => ({
  mode: setting.receivers ? 'own' : 'community',
  receiverIds: setting.receivers?.receiverIds ?? setting.communityReceivers?.receiverIds ?? [],
  notify: setting.receivers?.notify ?? setting.communityReceivers?.notify ?? ['page'],
});

/**
 * Who is told of this bed's alarms beyond the console, and how: the community's receivers, or
 * the bed's own. Saved on its own: the alarm rules above are left as they are on the server.
 */
export const BedReceiversCard = ({ userId, current }: { userId: number; current: Setting }) => {
  const { t } = useTranslation(NS);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ReceiverFields>();
  const mode = Form.useWatch('mode', form) ?? fieldsOf(current).mode;
  const caregivers = useCaregiverOptions(current.providerId);
  // Receivers by name, as the server names them (a caregiver beyond the options' page too).
  const names = new Map([
    ...(caregivers.data ?? []).map((c) => [c.id, c.name] as const),
    ...current.receiverNames.map((c) => [c.id, c.name] as const),
  ]);
  const offered = new Set((caregivers.data ?? []).map((c) => c.id));
  const options = [
    ...(caregivers.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.phone})` })),
    ...current.receiverNames.filter((c) => !offered.has(c.id)).map((c) => ({ value: c.id, label: c.name })),
  ];

  const submit = useFormSubmit(form, async (values: ReceiverFields) => {
    await api(saveBedAlarmSetting, {
      userId,
      receivers: values.mode === 'own' ? { receiverIds: values.receiverIds, notify: values.notify } : null,
    });
    submit.markSaved();
    await reloadCalls(queryClient, ['bedAlarmSetting']);
    void message.success(t('saved'));
  });

  const community = current.communityReceivers;
  const communityText = !community
    ? t('receivers.communityNone')
    : t('receivers.communitySummary', {
        people: community.receiverIds.length
          ? community.receiverIds.flatMap((id) => names.get(id) ?? []).join(', ')
          : t('receivers.nobody'),
        modes: community.notify.map((m) => t(`mode.${m}`)).join(', '),
      });

  return (
    <Card title={t('receivers.title')} style={{ marginTop: 16 }} data-testid="bed-receivers">
      <Typography.Paragraph type="secondary">{t('receivers.help')}</Typography.Paragraph>
      <Form<ReceiverFields> layout="vertical" initialValues={fieldsOf(current)} {...submit.formProps}>
        <Form.Item name="mode">
          <Radio.Group
            data-testid="bed-receivers-mode"
            options={[
              { value: 'community', label: t('receivers.community') },
              { value: 'own', label: t('receivers.own') },
            ]}
          />
        </Form.Item>
        {mode === 'community' ? (
          <Typography.Paragraph data-testid="bed-receivers-community">{communityText}</Typography.Paragraph>
        ) : (
          <>
            <Form.Item
              name="receiverIds"
              label={t('receivers.people')}
              extra={t('receivers.peopleHint')}
              rules={[{ type: 'array', max: RECEIVERS_MAX, message: t('rule.receiversMax', { max: RECEIVERS_MAX }) }]}
            >
              <Select
                mode="multiple"
                data-testid="bed-receivers-people"
                showSearch={{ optionFilterProp: 'label' }}
                loading={caregivers.isFetching}
                placeholder={t('receivers.placeholder')}
                notFoundContent={t('receivers.noCaregivers')}
                options={options}
              />
            </Form.Item>
            <Form.Item
              name="notify"
              label={t('receivers.notify')}
              rules={[{ type: 'array', required: true, min: 1, message: t('rule.notifyRequired') }]}
            >
              <Checkbox.Group
                data-testid="bed-receivers-notify"
                options={ALARM_NOTIFY_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) }))}
              />
            </Form.Item>
          </>
        )}
        <Flex justify="flex-end">
          <Button type="primary" loading={submit.pending} onClick={submit.submit} data-testid="bed-receivers-save">
            {t('receivers.save')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
};
