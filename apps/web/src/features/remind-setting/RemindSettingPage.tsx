import {
  queryAlertLevel,
  saveAlertLevel,
  SNOOZE_MINUTES_RANGE,
  VOICE_WAYS,
  type AlarmLevel,
  type AlarmSource,
  type AlarmType,
  type AlertLevelSettings,
  type VoiceWay,
} from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  InputNumber,
  Radio,
  Row,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { callKey, reloadCalls, useCall } from '../../shared/api/use-call.ts';
import { SPEECH } from '../../shared/live/alarm-voice.ts';
import { ListError, StaleNotice } from '../../shared/ui/list-state.tsx';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import {
  changesOf,
  defaultValues,
  isEmpty,
  LEVEL_COLOR,
  LEVEL_FIELD,
  LEVELS,
  sameValues,
  TYPES_BY_SOURCE,
  valuesOf,
  type SettingsValues,
} from './remind-setting-model.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';

/** Every value of the form, kept for fields not on screen too. Module-level: useWatch re-subscribes on a new selector. */
const allValues = (values: SettingsValues) => values;

interface TypeRow {
  type: AlarmType;
  source: AlarmSource;
  /** Rows the source cell spans: the group's size on its first row, 0 on the others. */
  span: number;
}
const TYPE_ROWS: TypeRow[] = TYPES_BY_SOURCE.flatMap(({ source, types }) =>
  types.map((type, index) => ({ type, source, span: index === 0 ? types.length : 0 })),
);

const LevelTag = ({ level }: { level: AlarmLevel }) => {
  const { t } = useTranslation('remind-setting');
  return (
    <Tag color={LEVEL_COLOR[level].tag} style={{ marginInlineEnd: 0 }}>
      {t(`level.${level}`)}
    </Tag>
  );
};

const VoiceLabel = ({ way }: { way: VoiceWay }) => {
  const { t } = useTranslation('remind-setting');
  const help = t(`voice.${way}.help`, {
    times: SPEECH.times,
    pause: SPEECH.pauseMs / 1000,
    minutes: SPEECH.forMs / 60_000,
  });
  return (
    <span>
      {t(`voice.${way}`)}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {help}
      </Typography.Text>
    </span>
  );
};

/** One level's card: its colour, whether its alarms pop up, and how they are heard. */
const LevelCard = ({ level, typeCount }: { level: AlarmLevel; typeCount: number }) => {
  const { t } = useTranslation('remind-setting');
  const field = LEVEL_FIELD[level];
  return (
    <Card
      data-testid={`remind-level-${level}`}
      title={
        <Space size={8}>
          <LevelTag level={level} />
          {t(`card.${level}`)}
        </Space>
      }
      extra={<Typography.Text type="secondary">{t('card.count', { count: typeCount })}</Typography.Text>}
      style={{ height: '100%', borderLeft: `4px solid ${LEVEL_COLOR[level].hex}` }}
    >
      <Form.Item name={[field, 'pc']} label={t('pc')} valuePropName="checked" extra={t('pc.help')}>
        <Switch data-testid={`remind-pc-${level}`} />
      </Form.Item>
      <Form.Item name={[field, 'globalVoiceWay']} label={t('voice')}>
        <Radio.Group
          data-testid={`remind-voice-${level}`}
          orientation="vertical"
          options={VOICE_WAYS.map((way) => ({ value: way, label: <VoiceLabel way={way} /> }))}
        />
      </Form.Item>
      <Form.Item
        name={[field, 'latch']}
        label={t('latch')}
        valuePropName="checked"
        extra={level === 1 ? t('latch.always') : t('latch.help')}
      >
        {/* Level 1 always latches (IEC 60601-1-8): shown, not changeable. */}
        <Switch data-testid={`remind-latch-${level}`} disabled={level === 1} />
      </Form.Item>
      <Form.Item
        name={[field, 'snoozeMinutes']}
        label={t('snooze')}
        extra={t('snooze.help')}
        rules={[{ required: true, type: 'integer', min: SNOOZE_MINUTES_RANGE.min, max: SNOOZE_MINUTES_RANGE.max }]}
        style={{ marginBottom: 0 }}
      >
        <InputNumber
          data-testid={`remind-snooze-${level}`}
          min={SNOOZE_MINUTES_RANGE.min}
          max={SNOOZE_MINUTES_RANGE.max}
          precision={0}
          suffix={t('snooze.unit')}
        />
      </Form.Item>
    </Card>
  );
};

/** Every alarm type, grouped by where it comes from, with its level. */
const TypeLevels = () => {
  const { t } = useTranslation('remind-setting');
  const columns: TableColumnsType<TypeRow> = [
    {
      key: 'source',
      title: t('column.source'),
      width: 180,
      render: (_value, row) => t(`source.${row.source}`),
      onCell: (row) => ({ rowSpan: row.span }),
    },
    { key: 'type', title: t('column.type'), render: (_value, row) => t(`alarmType.${row.type}`) },
    {
      key: 'level',
      title: t('column.level'),
      width: 240,
      render: (_value, row) => (
        <Form.Item name={['levelMap', row.type]} noStyle>
          <Radio.Group
            aria-label={t(`alarmType.${row.type}`)}
            options={LEVELS.map((level) => ({ value: level, label: <LevelTag level={level} /> }))}
          />
        </Form.Item>
      ),
    },
  ];
  return (
    <Table<TypeRow>
      data-testid="remind-types"
      rowKey="type"
      size="small"
      bordered
      pagination={false}
      columns={columns}
      dataSource={TYPE_ROWS}
    />
  );
};

/**
 * The form over the settings last loaded (`current`). A save sends only what differs from what
 * the form was loaded from, so another console's changes to anything else survive. When another
 * console saves meanwhile (the socket refreshes `current`), an untouched form shows the new
 * settings at once; an edited one keeps the user's values and says so.
 */
const SettingsForm = ({ current }: { current: AlertLevelSettings }) => {
  const { t } = useTranslation('remind-setting');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SettingsValues>();
  const [base, setBase] = useState(() => valuesOf(current));
  const baseRef = useRef(base);
  baseRef.current = base;
  /** Newer settings from the server, not shown because the form holds the user's changes. */
  const [newer, setNewer] = useState<SettingsValues | null>(null);
  const watched = Form.useWatch(allValues, { form, preserve: true }) as Partial<SettingsValues> | undefined;
  const values = watched?.levelMap && watched.alertTypeL1 && watched.alertTypeL2 ? (watched as SettingsValues) : base;
  const changed = useMemo(() => !isEmpty(changesOf(values, base)), [values, base]);

  const submit = useFormSubmit(form, async (submitted: SettingsValues) => {
    const request = changesOf(submitted, baseRef.current);
    if (isEmpty(request)) return;
    const saved = await api(saveAlertLevel, request);
    queryClient.setQueryData(callKey(queryAlertLevel, {}), saved);
    load(valuesOf(saved));
    void reloadCalls(queryClient, ['queryAlertLevel']);
    void message.success(t('saved'));
  });
  const { markSaved, formProps } = submit;

  const load = useCallback(
    (next: SettingsValues) => {
      form.setFieldsValue(next);
      baseRef.current = next;
      setBase(next);
      setNewer(null);
      markSaved();
    },
    [form, markSaved],
  );

  // The server's settings changed (this console's save, another console's, a reload).
  useEffect(() => {
    const incoming = valuesOf(current);
    if (sameValues(incoming, baseRef.current)) {
      setNewer(null);
      return;
    }
    const editing = !sameValues(form.getFieldsValue(true), baseRef.current);
    if (editing) setNewer(incoming);
    else load(incoming);
  }, [current, form, load]);

  // Back to what was loaded (by hand, or defaults equal to it): nothing to save, leaving does not ask;
  // and newer settings held back for the user's changes are shown now.
  useEffect(() => {
    if (changed) return;
    if (newer) load(newer);
    else markSaved();
  }, [changed, newer, load, markSaved]);

  const restoreDefaults = () => {
    const defaults = defaultValues();
    form.setFieldsValue(defaults);
    // Not saved until Save; defaults equal to what is stored leave nothing to save.
    if (sameValues(defaults, baseRef.current)) markSaved();
    else formProps.onValuesChange();
    void message.info(t('restored'));
  };

  const typeCount = (level: AlarmLevel) => Object.values(values.levelMap).filter((l) => l === level).length;

  return (
    <Form {...formProps} layout="vertical" initialValues={base} data-testid="remind-form">
      {newer && (
        <Alert
          type="warning"
          showIcon
          data-testid="remind-newer"
          style={{ marginBottom: 16 }}
          title={t('newer.title')}
          description={t('newer.description')}
          action={
            <Button size="small" data-testid="remind-load-newer" onClick={() => load(newer)}>
              {t('newer.load')}
            </Button>
          }
        />
      )}
      <Row gutter={[16, 16]}>
        {LEVELS.map((level) => (
          <Col key={level} xs={24} lg={12}>
            <LevelCard level={level} typeCount={typeCount(level)} />
          </Col>
        ))}
      </Row>
      <Card title={t('types.title')} style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary">{t('types.help')}</Typography.Paragraph>
        <TypeLevels />
      </Card>
      <Space style={{ marginTop: 16 }} wrap>
        <RefusableButton
          type="primary"
          htmlType="submit"
          loading={submit.pending}
          refusal={changed ? undefined : t('refused.nothingChanged')}
          data-testid="remind-save"
        >
          {t('common.save')}
        </RefusableButton>
        <Button data-testid="remind-restore" onClick={restoreDefaults}>
          {t('restoreDefaults')}
        </Button>
        {changed && <Tag data-testid="remind-unsaved">{t('unsaved')}</Tag>}
      </Space>
    </Form>
  );
};

/** Alarm settings (spec document 2 section 4): each level's popup and voice way, and each type's level. */
const RemindSettingPage = () => {
  const { t } = useTranslation('remind-setting');
  // The live socket invalidates this key when any console saves, and the live alarms read it too.
  const settings = useCall(queryAlertLevel, {});

  return (
    <div>
      <ScreenTitle route="remindsetting" />
      <Typography.Paragraph type="secondary">{t('note')}</Typography.Paragraph>
      <StaleNotice query={settings} />
      {settings.data ? (
        // A change of provider (sidebar) starts the form afresh: its edits were the other provider's.
        <SettingsForm key={settings.data.providerId} current={settings.data} />
      ) : settings.isError ? (
        <ListError query={settings} />
      ) : (
        <Card loading data-testid="remind-loading" />
      )}
    </div>
  );
};

export default RemindSettingPage;
