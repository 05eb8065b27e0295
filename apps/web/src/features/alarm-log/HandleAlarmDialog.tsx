import {
  alarmRelieve,
  CONSTANTS,
  dealResultsFor,
  RELIEVE_REASONS,
  type AlarmRecord,
  type DealResult,
  type RelieveReason,
} from '@vigil/contract/browser';
import { App, Descriptions, Form, Input, Modal, Radio, Select, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../shared/api/client.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { formatSeconds, levelTag, placeOf } from './alarm-model.ts';
import { AlarmMeasure, ElapsedSince, LiveChartLink } from '../../shared/live/AlarmFigures.tsx';
import { maxLengthRule, requiredRule } from '../../shared/ui/form-rules.ts';
import { ElsewhereFooter, HandledElsewhere } from './HandledElsewhere.tsx';
import { useAddNote, useHandledElsewhere } from './use-handled-elsewhere.ts';

interface HandleValues {
  reason: RelieveReason;
  result?: DealResult;
  details?: string;
}

const MAX_DETAILS = CONSTANTS.remarkMaxLength;
/** Another terminal released the alarm first (decision 0024: exactly one handling succeeds). */
const HANDLED_ELSEWHERE = 'alarm.handledElsewhere';

/**
 * Handles a pending alarm (release kind 1): why it is released (required), what the caregiver
 * found, and what they did. When another terminal handles it while the dialog is open (the live
 * socket says so, or the server refuses this handling), the dialog says by whom, when and how,
 * Handle is disabled, and what was typed under Details can still go on the alarm's timeline.
 */
export const HandleAlarmDialog = (props: { alarm: AlarmRecord; onDone: () => void; onClose: () => void }) => {
  const { t } = useTranslation('alarm-log');
  const { message } = App.useApp();
  const toast = useApiError();
  const [form] = Form.useForm<HandleValues>();
  const { alarm } = props;

  const submit = useFormSubmit(
    form,
    async (values: HandleValues) => {
      if (elsewhere.done) return false;
      const details = values.details?.trim();
      await api(alarmRelieve, {
        id: alarm.id,
        reason: values.reason,
        ...(values.result ? { result: values.result } : {}),
        ...(details ? { details } : {}),
      });
      void message.success(t('handle.done'));
      props.onDone();
      props.onClose();
    },
    {
      onError: (error) => {
        if (error instanceof ApiError && error.msgKey === HANDLED_ELSEWHERE) {
          void message.warning(error.message);
          props.onDone();
          // The dialog stays, saying who handled it, so what was typed can still be kept.
          void elsewhere.learn().then((known) => {
            if (known) return;
            submit.markSaved();
            props.onClose();
          });
          return;
        }
        toast(error);
      },
    },
  );

  const elsewhere = useHandledElsewhere(alarm, submit.pending);
  const note = useAddNote(form, alarm.id, () => {
    submit.markSaved();
    props.onClose();
  });
  const done = elsewhere.done;

  const level = levelTag(alarm.alertLevel, t);
  const place = placeOf(alarm);
  return (
    <Modal
      open
      title={t('handle.title')}
      okText={t('action.handle')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      okButtonProps={done ? { disabled: true, style: { pointerEvents: 'none' } } : undefined}
      footer={done ? (_, buttons) => <ElsewhereFooter {...buttons} note={note} /> : undefined}
    >
      {done && <HandledElsewhere alarm={done} />}
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          {
            key: 'text',
            label: t('field.text'),
            children: (
              <Space size={4} wrap>
                <Tag color={level.color}>{level.text}</Tag>
                <span>{alarm.text}</span>
              </Space>
            ),
          },
          // The figure that raised it, beside the way to the resident's chart (decision 0036).
          ...(alarm.measureText
            ? [
                {
                  key: 'measure',
                  label: t('field.measure'),
                  children: (
                    <Space size={8} wrap>
                      <AlarmMeasure alarm={alarm} strong />
                      <LiveChartLink userId={alarm.userId} />
                    </Space>
                  ),
                },
              ]
            : []),
          {
            key: 'time',
            label: t('field.time'),
            children: (
              <>
                {formatSeconds(alarm.timeStamp)} · <ElapsedSince since={alarm.timeStamp} />
              </>
            ),
          },
          ...(place ? [{ key: 'place', label: t('field.place'), children: place }] : []),
        ]}
      />
      <Form {...submit.formProps} layout="vertical" disabled={!!done} data-testid="alarm-handle-form">
        <Form.Item name="reason" label={t('field.reason')} rules={[requiredRule(t)]}>
          <Radio.Group
            orientation="vertical"
            options={RELIEVE_REASONS.map((reason) => ({ value: reason, label: t(`relieve.${reason}`) }))}
          />
        </Form.Item>
        <Form.Item name="result" label={t('field.result')}>
          <Select<DealResult>
            data-testid="alarm-handle-result"
            aria-label={t('field.result')}
            allowClear
            placeholder={t('handle.resultPlaceholder')}
            // The results that fit this alarm's type, as the server lists them (a fall's postures for falls only).
            options={(alarm.resultOptions ?? dealResultsFor(alarm.alertType)).map((result) => ({
              value: result,
              label: t(`dealResult.${result}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="details" label={t('field.details')} rules={[maxLengthRule(t, MAX_DETAILS)]}>
          <Input.TextArea
            rows={3}
            maxLength={MAX_DETAILS}
            showCount
            // Still open once handled elsewhere: the notes go on the timeline.
            disabled={false}
            placeholder={t('handle.detailsPlaceholder')}
            data-testid="alarm-handle-details"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
};
