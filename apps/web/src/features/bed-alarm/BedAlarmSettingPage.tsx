import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  bedAlarmSetting,
  minutesOf,
  NO_MOTION_HOURS,
  saveBedAlarmSetting,
  SLEEP_ALARM_TYPES,
  SLEEP_DURATION_KEYS,
  type AlarmType,
  type EndpointResult,
  type SleepAlarmType,
  type TimeRange,
} from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { reloadCalls, useCall } from '../../shared/api/use-call.ts';
import { BedReceiversCard } from './BedReceiversCard.tsx';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  InputNumber,
  Radio,
  Result,
  Row,
  Space,
  Switch,
  Tag,
  TimePicker,
  Typography,
  type FormRule,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { ListError, StaleNotice } from '../../shared/ui/list-state.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import {
  ALL_DAY_RANGE,
  defaultRules,
  DURATION_LIMITS,
  durationParts,
  isAllDay,
  LIMITS,
  LIST_PATH,
  OTHER_TYPES,
  rulesOf,
  sameValues,
  valuesOf,
  type AlarmFormValues,
  type BedAlarmState,
  type LimitKey,
} from './bed-alarm-model.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import { ResponsiveTable, type CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
import { requiredRule } from '../../shared/ui/form-rules.ts';

type Setting = EndpointResult<typeof bedAlarmSetting>;

const NS = 'bed-alarm';
const CLOCK = 'HH:mm';
/** What unticking "All day" offers when the range had no hours of its own: the night. */
const NIGHT: TimeRange = { start: '22:00', end: '06:00' };

/** The query of one resident's settings; a save refreshes it. */

/** Every value of the form, kept for fields not on screen too. Module-level: useWatch re-subscribes on a new selector. */
const allValues = (values: AlarmFormValues) => values;

/** `:userId` as a resident id; null for anything else. */
const idOf = (raw: string | undefined): number | null =>
  raw !== undefined && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;

/** A time of day from HH:mm (no parsing plugin needed). */
const clock = (hhmm: string): Dayjs => {
  const [hour = 0, minute = 0] = hhmm.split(':').map(Number);
  return dayjs().hour(hour).minute(minute).second(0).millisecond(0);
};

/** "1 h 30 min": a duration in seconds as people read it. */
const useDurationText = () => {
  const { t } = useTranslation(NS);
  return (seconds: number | null | undefined): string => {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 60) return '';
    const { h, min, s } = durationParts(seconds);
    return [
      h && t('unit.hours', { count: h }),
      min && t('unit.minutes', { count: min }),
      s && t('unit.seconds', { count: s }),
    ]
      .filter(Boolean)
      .join(' ');
  };
};

/** A whole number between the contract's limits, with the limits in the message. */
const rangeRules = (t: TFunction, [min, max]: readonly [number, number]): FormRule[] => [
  requiredRule(t),
  { type: 'integer', min, max, message: t('rule.between', { min, max }) },
];

/** The upper limit's rule: above the lower one (the server refuses otherwise). */
const aboveRule =
  (lower: LimitKey, message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) => {
      const min = getFieldValue(['rules', lower]) as unknown;
      return typeof value === 'number' && typeof min === 'number' && min >= value
        ? Promise.reject(new Error(message))
        : Promise.resolve();
    },
  });

/**
 * A daily range: from, to, and "All day" (equal ends, 00:00–00:00). An end before the start runs
 * past midnight. Unticking "All day" brings back the hours it replaced, else the night.
 */
const TimeRangeInput = (props: {
  value?: TimeRange;
  onChange?: (range: TimeRange) => void;
  disabled?: boolean;
  label: string;
  testId: string;
}) => {
  const { t } = useTranslation(NS);
  const range = props.value ?? ALL_DAY_RANGE;
  const allDay = isAllDay(range);
  const replaced = useRef<TimeRange | null>(null);
  const set = (next: TimeRange) => props.onChange?.(next);
  const picker = (end: 'start' | 'end') => (
    <TimePicker
      format={CLOCK}
      needConfirm={false}
      allowClear={false}
      size="small"
      style={{ width: 96 }}
      disabled={props.disabled || allDay}
      value={clock(range[end])}
      aria-label={`${props.label}: ${t(end === 'start' ? 'range.from' : 'range.to')}`}
      data-testid={`${props.testId}-${end}`}
      onChange={(time: Dayjs | null) => {
        if (time) set({ ...range, [end]: time.format(CLOCK) });
      }}
    />
  );
  return (
    <Space size={8} wrap data-testid={props.testId}>
      {picker('start')}
      <span aria-hidden>–</span>
      {picker('end')}
      <Checkbox
        checked={allDay}
        disabled={props.disabled}
        aria-label={`${props.label}: ${t('range.allDay')}`}
        data-testid={`${props.testId}-allDay`}
        onChange={(event) => {
          if (event.target.checked) {
            replaced.current = range;
            set({ ...ALL_DAY_RANGE });
          } else set(replaced.current && !isAllDay(replaced.current) ? replaced.current : { ...NIGHT });
        }}
      >
        {t('range.allDay')}
      </Checkbox>
      {!allDay && minutesOf(range.end) < minutesOf(range.start) && (
        <Typography.Text type="secondary">{t('range.overnight')}</Typography.Text>
      )}
    </Space>
  );
};

/** The seven sleep-monitor alarms: watched, how long the condition lasts first, and when. */
const SleepAlarms = ({ values }: { values: AlarmFormValues }) => {
  const { t } = useTranslation(NS);
  const durationText = useDurationText();
  const watchedSwitch = (type: SleepAlarmType) => (
    <Form.Item name={['watched', type]} valuePropName="checked" noStyle>
      <Switch aria-label={t(`alarmType.${type}`)} data-testid={`watched-${type}`} />
    </Form.Item>
  );
  const columns: TableColumnsType<SleepAlarmType> = [
    { key: 'type', title: t('column.type'), render: (_value, type) => t(`alarmType.${type}`) },
    {
      key: 'watched',
      title: t('column.watched'),
      width: 110,
      render: (_value, type) => watchedSwitch(type),
    },
    {
      key: 'duration',
      title: t('column.duration'),
      width: 260,
      render: (_value, type) => {
        const key = SLEEP_DURATION_KEYS[type];
        const limits = DURATION_LIMITS[key];
        const label = t(`alarmType.${type}`);
        return (
          <Form.Item
            name={['rules', 'durations', key]}
            rules={rangeRules(t, limits)}
            extra={durationText(values.rules.durations[key])}
            style={{ marginBottom: 0 }}
          >
            <InputNumber
              precision={0}
              style={{ width: 150 }}
              suffix={t('unit.s')}
              disabled={!values.watched[type]}
              placeholder={`${limits[0]}–${limits[1]}`}
              aria-label={`${label}: ${t('column.duration')}`}
            />
          </Form.Item>
        );
      },
    },
    {
      key: 'range',
      title: t('column.range'),
      render: (_value, type) => (
        <Form.Item name={['rules', 'ranges', type]} style={{ marginBottom: 0 }}>
          <TimeRangeInput label={t(`alarmType.${type}`)} testId={`range-${type}`} disabled={!values.watched[type]} />
        </Form.Item>
      ),
    },
  ];
  // On a phone each alarm is a card: its name and switch, then how long and when.
  const cards: CardLayout<SleepAlarmType> = {
    title: (type) => t(`alarmType.${type}`),
    state: watchedSwitch,
    fields: ['duration', 'range'],
  };
  return (
    <ResponsiveTable<SleepAlarmType>
      data-testid="bed-alarm-sleep"
      rowKey={(type) => type}
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={columns}
      cards={cards}
      dataSource={SLEEP_ALARM_TYPES}
    />
  );
};

/** A limit field between the contract's limits, with a unit. */
const LimitField = (props: { name: LimitKey; unit?: string; extraRules?: FormRule[]; dependsOn?: LimitKey }) => {
  const { t } = useTranslation(NS);
  const limits = LIMITS[props.name];
  return (
    <Form.Item
      name={['rules', props.name]}
      label={t(`limit.${props.name}`)}
      rules={[...rangeRules(t, limits), ...(props.extraRules ?? [])]}
      dependencies={props.dependsOn ? [['rules', props.dependsOn]] : undefined}
    >
      <InputNumber
        precision={0}
        style={{ width: '100%' }}
        suffix={props.unit}
        placeholder={`${limits[0]}–${limits[1]}`}
      />
    </Form.Item>
  );
};

/** Breathing and heart-rate limits, and the movement thresholds of the sleep monitor. */
const Limits = () => {
  const { t } = useTranslation(NS);
  return (
    <Row gutter={16}>
      <Col xs={24} sm={12} lg={6}>
        <LimitField name="breathMin" unit={t('unit.perMinute')} />
      </Col>
      <Col xs={24} sm={12} lg={6}>
        <LimitField
          name="breathMax"
          unit={t('unit.perMinute')}
          dependsOn="breathMin"
          extraRules={[aboveRule('breathMin', t('rule.breathLimits'))]}
        />
      </Col>
      <Col xs={24} sm={12} lg={6}>
        <LimitField name="heartMin" unit={t('unit.perMinute')} />
      </Col>
      <Col xs={24} sm={12} lg={6}>
        <LimitField
          name="heartMax"
          unit={t('unit.perMinute')}
          dependsOn="heartMin"
          extraRules={[aboveRule('heartMin', t('rule.heartLimits'))]}
        />
      </Col>
      <Col xs={24} sm={12} lg={6}>
        <LimitField name="bodyMoveAbove" />
      </Col>
      <Col xs={24} sm={12} lg={6}>
        <LimitField name="turnOverAbove" />
      </Col>
    </Row>
  );
};

/** The door, infrared and battery rules, and whether every other alarm type is watched. */
const OtherSensors = ({ values }: { values: AlarmFormValues }) => {
  const { t } = useTranslation(NS);
  const limits = LIMITS.lowBatteryPercent;
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Form.Item name={['rules', 'doorRange']} label={t('door.range')} extra={t('door.help')}>
            <TimeRangeInput label={t('door.range')} testId="range-door" disabled={!values.watched.DOOR} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12} lg={7}>
          <Form.Item name={['rules', 'noMotionHours']} label={t('noMotion.hours')}>
            <Radio.Group
              optionType="button"
              disabled={!values.watched.NO_MOTION}
              options={NO_MOTION_HOURS.map((h) => ({ value: h, label: t('unit.hours', { count: h }) }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12} lg={7}>
          <Form.Item
            name={['rules', 'lowBatteryPercent']}
            label={t('battery.percent')}
            rules={rangeRules(t, limits)}
            extra={t('battery.help')}
          >
            <InputNumber
              precision={0}
              style={{ width: '100%' }}
              suffix="%"
              disabled={!values.watched.LOW_BATTERY}
              placeholder={`${limits[0]}–${limits[1]}`}
            />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Text strong>{t('others.watched')}</Typography.Text>
      <Row gutter={[24, 8]} style={{ marginTop: 8 }} data-testid="bed-alarm-others">
        {OTHER_TYPES.map((type: AlarmType) => (
          <Col key={type} xs={24} sm={12} lg={8}>
            <Flex justify="space-between" align="center" gap={8}>
              <Typography.Text>{t(`alarmType.${type}`)}</Typography.Text>
              <Form.Item name={['watched', type]} valuePropName="checked" noStyle>
                <Switch size="small" aria-label={t(`alarmType.${type}`)} data-testid={`watched-${type}`} />
              </Form.Item>
            </Flex>
          </Col>
        ))}
      </Row>
    </>
  );
};

/**
 * The form over the rules last loaded (`current`). A save sends the whole rules object. When the
 * settings are read again (focus, another console's save), an untouched form shows them at once;
 * an edited one keeps the user's values and says so.
 */
const SettingsForm = ({ userId, current }: { userId: number; current: Setting }) => {
  const { t } = useTranslation(NS);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const toast = useApiError();
  const [form] = Form.useForm<AlarmFormValues>();
  const [base, setBase] = useState(() => valuesOf(current.rules));
  const baseRef = useRef(base);
  baseRef.current = base;
  /** Newer rules from the server, not shown because the form holds the user's changes. */
  const [newer, setNewer] = useState<AlarmFormValues | null>(null);
  const [resetting, setResetting] = useState(false);
  const watched = Form.useWatch(allValues, { form, preserve: true }) as Partial<AlarmFormValues> | undefined;
  const values = watched?.rules && watched.watched ? (watched as AlarmFormValues) : base;
  const changed = useMemo(() => !sameValues(values, base), [values, base]);

  const refresh = () => void reloadCalls(queryClient, ['bedAlarmSetting']);

  const submit = useFormSubmit(form, async () => {
    // The whole store: types not on screen (FENCE) keep their state.
    const rules = rulesOf(form.getFieldsValue(true));
    await api(saveBedAlarmSetting, { userId, rules });
    load(valuesOf(rules));
    refresh();
    void message.success(t('saved'));
  });
  const { markSaved, formProps } = submit;

  const load = useCallback(
    (next: AlarmFormValues) => {
      form.setFieldsValue(next);
      baseRef.current = next;
      setBase(next);
      setNewer(null);
      markSaved();
    },
    [form, markSaved],
  );

  // The server's rules changed (this console's save, a reload, another console's save).
  useEffect(() => {
    const incoming = valuesOf(current.rules);
    if (sameValues(incoming, baseRef.current)) {
      setNewer(null);
      return;
    }
    const editing = !sameValues(form.getFieldsValue(true), baseRef.current);
    if (editing) setNewer(incoming);
    else load(incoming);
  }, [current, form, load]);

  // Back to what was loaded by hand: nothing to save, leaving does not ask; newer rules held back are shown now.
  useEffect(() => {
    if (changed) return;
    if (newer) load(newer);
    else markSaved();
  }, [changed, newer, load, markSaved]);

  const backToDefaults = () =>
    modal.confirm({
      title: t('defaults.title'),
      content: t('defaults.content'),
      okText: t('defaults.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'bed-alarm-defaults-ok' },
      onOk: async () => {
        setResetting(true);
        try {
          await api(saveBedAlarmSetting, { userId, rules: null });
          load(valuesOf(defaultRules()));
          refresh();
          void message.success(t('defaults.done'));
        } catch (error) {
          toast(error);
        } finally {
          setResetting(false);
        }
      },
    });

  return (
    <Form {...formProps} layout="vertical" initialValues={base} data-testid="bed-alarm-form">
      {newer && (
        <Alert
          type="warning"
          showIcon
          data-testid="bed-alarm-newer"
          style={{ marginBottom: 16 }}
          title={t('newer.title')}
          description={t('newer.description')}
          action={
            <Button size="small" data-testid="bed-alarm-load-newer" onClick={() => load(newer)}>
              {t('newer.load')}
            </Button>
          }
        />
      )}
      <Card title={t('sleep.title')}>
        <Typography.Paragraph type="secondary">{t('sleep.help')}</Typography.Paragraph>
        <SleepAlarms values={values} />
      </Card>
      <Card title={t('limits.title')} style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary">{t('limits.help')}</Typography.Paragraph>
        <Limits />
      </Card>
      <Card title={t('others.title')} style={{ marginTop: 16 }}>
        <OtherSensors values={values} />
      </Card>
      <Space style={{ marginTop: 16 }} wrap>
        <RefusableButton
          type="primary"
          htmlType="submit"
          loading={submit.pending}
          disabled={resetting}
          refusal={changed ? undefined : t('refused.nothingChanged')}
          data-testid="bed-alarm-save"
        >
          {t('common.save')}
        </RefusableButton>
        <RefusableButton
          danger
          data-testid="bed-alarm-defaults"
          loading={resetting}
          disabled={submit.pending}
          refusal={current.custom ? undefined : t('defaults.already')}
          onClick={backToDefaults}
        >
          {t('defaults.button')}
        </RefusableButton>
        {changed && <Tag data-testid="bed-alarm-unsaved">{t('unsaved')}</Tag>}
      </Space>
    </Form>
  );
};

/** Area, floor, room and bed of the resident's bed, or null when they are in none. */
const bedPathOf = (s: Pick<Setting, 'floorArea' | 'room' | 'bunk'>): string | null =>
  s.bunk === null ? null : [s.floorArea, s.room, s.bunk].filter(Boolean).join(' / ');

/** Whose settings these are, and whether they are the defaults or the resident's own. */
const Header = ({ userId, setting }: { userId: number | null; setting: Setting | undefined }) => {
  const { t } = useTranslation(NS);
  const state = (useLocation().state ?? null) as BedAlarmState | null;
  // The server names the resident and their bed (a reload or a link opened elsewhere carries no
  // state); what the bed list passed shows until it answers. Never the resident's internal id.
  const userName = setting?.userName ?? state?.userName ?? null;
  const bed = setting ? bedPathOf(setting) : (state?.bed ?? null);
  return (
    <Flex justify="space-between" align="flex-start" gap={16} wrap style={{ marginBottom: 16 }}>
      <div>
        <Space size={12} wrap align="center">
          <ScreenTitle route="settingAlarm" style={{ margin: 0 }} />
          {setting &&
            (setting.custom ? (
              <Tag color="blue" data-testid="bed-alarm-state">
                {t('state.custom')}
              </Tag>
            ) : (
              <Tag data-testid="bed-alarm-state">{t('state.defaults')}</Tag>
            ))}
          {setting?.custom && setting.updateTime && (
            <Typography.Text type="secondary" data-testid="bed-alarm-updated">
              {t('state.updated', { time: formatDateTime(setting.updateTime) })}
            </Typography.Text>
          )}
        </Space>
        {userId !== null && (userName || bed) && (
          <Space size={16} wrap style={{ marginTop: 4, display: 'flex' }} data-testid="bed-alarm-resident">
            {userName && <Typography.Text strong>{userName}</Typography.Text>}
            <Typography.Text type="secondary">{bed ? t('header.bed', { bed }) : t('header.noBed')}</Typography.Text>
          </Space>
        )}
      </div>
      <Link to={LIST_PATH} data-testid="bed-alarm-back">
        <ArrowLeftOutlined /> {t('back')}
      </Link>
    </Flex>
  );
};

/**
 * A resident's bed alarm rules (/BunkManage/alarmSetting/:userId): the seven sleep-monitor alarms'
 * durations and time ranges, the limits they compare with, the door, infrared and battery rules,
 * and which alarm types are watched at all. Saving sends the whole rules; "Back to defaults" drops them.
 */
const BedAlarmSettingPage = () => {
  const { t } = useTranslation(NS);
  const navigate = useNavigate();
  const userId = idOf(useParams().userId);
  const setting = useCall(bedAlarmSetting, { userId: userId ?? 0 }, { enabled: userId !== null });

  if (userId === null) {
    return (
      <div>
        <Header userId={null} setting={undefined} />
        <Result
          status="404"
          title={t('notFound')}
          data-testid="bed-alarm-not-found"
          extra={
            <Button type="primary" onClick={() => void navigate(LIST_PATH)}>
              {t('back')}
            </Button>
          }
        />
      </div>
    );
  }

  return (
    <div>
      <Header userId={userId} setting={setting.data} />
      <StaleNotice query={setting} />
      {setting.data ? (
        // Another resident starts the form afresh.
        <>
          <SettingsForm key={userId} userId={userId} current={setting.data} />
          {/* A change on the server (this card's save, another console's) starts the card afresh. */}
          <BedReceiversCard
            key={`${userId}:${JSON.stringify(setting.data.receivers)}`}
            userId={userId}
            current={setting.data}
          />
        </>
      ) : setting.isError ? (
        <ListError query={setting} />
      ) : (
        <Card loading data-testid="bed-alarm-loading" />
      )}
    </div>
  );
};

export default BedAlarmSettingPage;
