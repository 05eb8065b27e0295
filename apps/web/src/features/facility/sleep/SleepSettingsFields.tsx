import { DEFAULT_SLEEP_SETTING } from '@vigil/contract/browser';
import { Col, Form, Radio, Row, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  LEAVE_BED_MODES,
  MATTRESSES,
  SENSITIVITIES,
  type LeaveBedMode,
  type Mattress,
  type Sensitivity,
} from '../facility-model.ts';
import { requiredRule } from '../../../shared/ui/form-rules.ts';

/** Sleep settings as the calls carry them: times as HH:mm. */
export interface SleepValues {
  leaveBedMode: LeaveBedMode;
  sleepTime: string;
  wakeTime: string;
  sensitivity: Sensitivity;
  mattress: Mattress;
}

/** The same settings as the form holds them: times for the time pickers. */
export interface SleepFields {
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

export const sleepFieldsOf = (values: SleepValues): SleepFields => ({
  leaveBedMode: values.leaveBedMode,
  sleepTime: clock(values.sleepTime),
  wakeTime: clock(values.wakeTime),
  sensitivity: values.sensitivity,
  mattress: values.mattress,
});

export const sleepValuesOf = (fields: SleepFields): SleepValues => ({
  leaveBedMode: fields.leaveBedMode,
  sleepTime: fields.sleepTime?.format(CLOCK) ?? '',
  wakeTime: fields.wakeTime?.format(CLOCK) ?? '',
  sensitivity: fields.sensitivity,
  mattress: fields.mattress,
});

/** What a resident has until someone saves settings for them: the platform's defaults (the server's too). */
export const sleepDefaults = (): SleepFields => sleepFieldsOf(DEFAULT_SLEEP_SETTING);

/**
 * The fields of a resident's sleep settings, inside a `Form<SleepFields>`: bed-leaving watch, sleep
 * and wake time (they must differ), sensitivity and mattress. Shared by the community's dialog
 * and BunkManage's, which save to the same place.
 */
export const SleepSettingsFields = ({ mattressHint }: { mattressHint?: string }) => {
  const { t } = useTranslation('facility');
  return (
    <>
      <Form.Item name="leaveBedMode" label={t('sleep.leaveBed')}>
        <Radio.Group
          optionType="button"
          options={LEAVE_BED_MODES.map((m) => ({ value: m, label: t(`sleep.mode.${m}`) }))}
        />
      </Form.Item>
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item name="sleepTime" label={t('sleep.sleepTime')} rules={[requiredRule(t)]}>
            <TimePicker format={CLOCK} needConfirm={false} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="wakeTime"
            label={t('sleep.wakeTime')}
            dependencies={['sleepTime']}
            rules={[
              requiredRule(t),
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
      <Form.Item name="mattress" label={t('bed.mattress')} extra={mattressHint}>
        <Radio.Group optionType="button" options={MATTRESSES.map((m) => ({ value: m, label: t(`mattress.${m}`) }))} />
      </Form.Item>
    </>
  );
};
