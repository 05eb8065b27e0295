import { endAbsence, getResident, startAbsence } from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Descriptions, Form, Input, Modal, Spin, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { useGuardedAction } from '../../shared/ui/useGuardedAction.ts';
import { absenceProblem } from './absence-rules.ts';
import { formatTime, TIME_FORMAT } from './format.ts';
import { hasControlChars, RESIDENT_LIMITS, type AbsenceRequest, type ResidentRow } from './resident-model.ts';
import { controlCharsMessage, maxLengthRule } from '../../shared/ui/form-rules.ts';

interface AbsenceFields {
  startTime?: Dayjs | null;
  endTime?: Dayjs | null;
  reason?: string;
}

/**
 * A checked-in resident's temporary absence (a hospital visit …): shows the open one with an
 * action to end it, or a form to start one now or later, with an optional expected return
 * (it ends by itself then) and reason. Bed-leaving alarms pause while the resident is away.
 */
export const AbsenceDialog = (props: { resident: ResidentRow | null; onClose: () => void }) => {
  const { resident } = props;
  const { t } = useTranslation('residents');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AbsenceFields>();

  const detail = useQuery({
    queryKey: ['residents', 'detail', resident?.id],
    queryFn: () => api(getResident, { id: resident?.id ?? 0 }),
    enabled: resident !== null,
  });
  const absence = detail.data?.absence ?? null;

  useEffect(() => {
    if (resident) form.resetFields();
  }, [resident, form]);

  const done = (text: string) => {
    void message.success(text);
    void queryClient.invalidateQueries({ queryKey: ['residents'] });
    props.onClose();
  };
  const start = useMutation({
    mutationFn: (input: AbsenceRequest) => api(startAbsence, input),
    onSuccess: () => resident && done(t('absence.started', { name: resident.name })),
  });
  const end = useMutation({
    mutationFn: (userId: number) => api(endAbsence, { userId }),
    onSuccess: () => resident && done(t('absence.ended', { name: resident.name })),
    onError,
  });

  /** Both times are checked together, so the message lands on the field that is wrong. */
  const timeRule =
    (field: 'start' | 'end') =>
    ({ getFieldValue }: { getFieldValue: (name: keyof AbsenceFields) => unknown }) => ({
      validator: () => {
        const startTime = getFieldValue('startTime') as Dayjs | null | undefined;
        const endTime = getFieldValue('endTime') as Dayjs | null | undefined;
        const found = absenceProblem({
          start: startTime ? startTime.valueOf() : null,
          end: endTime ? endTime.valueOf() : null,
          now: Date.now(),
          admittedAt: resident?.admittedAt ?? null,
        });
        return found && found.field === field
          ? Promise.reject(
              new Error(
                t(`absence.problem.${found.problem}`, {
                  hours: RESIDENT_LIMITS.absencePastStartHours,
                  days:
                    found.problem === 'tooLong'
                      ? RESIDENT_LIMITS.absenceMaxDays
                      : RESIDENT_LIMITS.absenceFutureStartDays,
                }),
              ),
            )
          : Promise.resolve();
      },
    });

  const endNow = useGuardedAction((userId: number) => end.mutateAsync(userId));
  const submit = useFormSubmit(form, async (values: AbsenceFields) => {
    if (!resident) return;
    const reason = values.reason?.trim();
    await start.mutateAsync({
      userId: resident.id,
      // ISO 8601 with the browser's offset, as the contract asks.
      startTime: values.startTime ? values.startTime.format() : undefined,
      endTime: values.endTime ? values.endTime.format() : undefined,
      reason: reason || undefined,
    });
  });

  const showForm = detail.isSuccess && absence === null;
  return (
    <Modal
      open={resident !== null}
      title={resident ? t('absence.title', { name: resident.name }) : ''}
      onCancel={() => submit.confirmLeave(props.onClose)}
      forceRender
      footer={
        showForm
          ? [
              <Button key="cancel" onClick={() => submit.confirmLeave(props.onClose)}>
                {t('common.cancel')}
              </Button>,
              <Button key="ok" type="primary" loading={submit.pending} onClick={submit.submit}>
                {t('absence.start')}
              </Button>,
            ]
          : [
              <Button key="close" onClick={props.onClose}>
                {t('common.close')}
              </Button>,
              absence && resident ? (
                <Button
                  key="end"
                  type="primary"
                  loading={endNow.pending}
                  onClick={() => endNow.run(resident.id)}
                  data-testid="absence-end"
                >
                  {t(absence.active ? 'absence.end' : 'absence.cancelPlanned')}
                </Button>
              ) : null,
            ]
      }
    >
      {detail.isFetching && !detail.data && <Spin />}
      {detail.isError && <Alert type="error" showIcon title={t('absence.loadFailed')} />}
      {absence && (
        <Descriptions column={1} size="small" bordered data-testid="absence-open">
          <Descriptions.Item label={t('absence.state')}>
            <Tag color={absence.active ? 'orange' : 'blue'}>
              {t(absence.active ? 'absence.away' : 'absence.planned')}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('absence.startTime')}>{formatTime(absence.startTime)}</Descriptions.Item>
          <Descriptions.Item label={t('absence.endTime')}>
            {absence.endTime ? formatTime(absence.endTime) : t('absence.untilEnded')}
          </Descriptions.Item>
          <Descriptions.Item label={t('absence.reason')}>{absence.reason ?? ''}</Descriptions.Item>
        </Descriptions>
      )}
      <Form<AbsenceFields> {...submit.formProps} layout="vertical" data-testid="absence-form" hidden={!showForm}>
        <Alert type="info" showIcon title={t('absence.hint')} style={{ marginBottom: 16 }} />
        <Form.Item
          name="startTime"
          label={t('absence.startTime')}
          extra={t('absence.startHint')}
          dependencies={['endTime']}
          rules={[timeRule('start')]}
        >
          <DatePicker showTime format={TIME_FORMAT} placeholder={t('absence.now')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="endTime"
          label={t('absence.endTime')}
          extra={t('absence.endHint')}
          dependencies={['startTime']}
          rules={[timeRule('end')]}
        >
          <DatePicker showTime format={TIME_FORMAT} placeholder={t('absence.untilEnded')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('absence.reason')}
          rules={[
            maxLengthRule(t, RESIDENT_LIMITS.absenceReasonMaxLength),
            {
              validator: (_, value: string | undefined) =>
                value && hasControlChars(value, true)
                  ? Promise.reject(new Error(controlCharsMessage(t)))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input.TextArea rows={3} maxLength={RESIDENT_LIMITS.absenceReasonMaxLength} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
};
