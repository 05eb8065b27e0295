import { ALARM_TYPES, alarmExport, FRAME_TOUCHES, type AlarmRecord, type AlarmType } from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { reloadCalls } from '../../shared/api/use-call.ts';
import { Input, Select, Space, Tabs, Typography } from 'antd';
import { PlaceFilter } from '../devices/PlaceFilter.tsx';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentProvider } from '../../shared/session/session-store.ts';
import { ExportButton } from '../../shared/ui/ExportButton.tsx';
import { DEFAULT_PERIOD, listFilters, PERIODS, type AlarmFilters, type AlarmTab, type Period } from './alarm-model.ts';
import { AlarmTable } from './AlarmTable.tsx';
import { AlarmTimelineDrawer } from './AlarmTimelineDrawer.tsx';
import { HandleAlarmDialog } from './HandleAlarmDialog.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

type OpenDialog = { kind: 'handle' | 'timeline'; alarm: AlarmRecord } | null;

const INITIAL: AlarmFilters = { period: DEFAULT_PERIOD };

/**
 * The alarm log (/alarm-log/alarmIndex): pending and resolved alarms of the last 24 hours, week,
 * month (the default) or three months, found by key word, type and level. A pending alarm is
 * handled here with a reason and a result; any alarm shows its timeline. The current tab exports
 * with the current filters.
 */
const AlarmLogPage = () => {
  const { t } = useTranslation('alarm-log');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<AlarmTab>('pending');
  const [filters, setFilters] = useState<AlarmFilters>(INITIAL);
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const filter = (change: Partial<AlarmFilters>) => setFilters((current) => ({ ...current, ...change }));
  const filtered =
    filters.period !== DEFAULT_PERIOD ||
    filters.keyWord !== undefined ||
    filters.alertType !== undefined ||
    filters.alertLevel !== undefined ||
    filters.roomId !== undefined ||
    filters.areaId !== undefined;
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters(INITIAL);
  };
  /** After a handling (or a refusal because it was handled elsewhere): both lists and the bell. */
  // A handling releases the alarm: what a release frame makes stale.
  const refresh = () => void reloadCalls(queryClient, FRAME_TOUCHES['/userStatusNotify']);

  const table = (which: AlarmTab) => (
    <AlarmTable
      tab={which}
      filters={filters}
      filtered={filtered}
      onClearFilters={clearFilters}
      onHandle={(alarm) => setDialog({ kind: 'handle', alarm })}
      onTimeline={(alarm) => setDialog({ kind: 'timeline', alarm })}
    />
  );

  return (
    // A change of provider in the sidebar starts the screen afresh (filters, pages, dialogs).
    <div key={currentProvider().id ?? 'none'}>
      <ScreenTitle route="alarm" />
      <Typography.Paragraph type="secondary">{t('note')}</Typography.Paragraph>
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Select<Period>
          data-testid="alarm-filter-period"
          aria-label={t('filter.period')}
          value={filters.period}
          style={{ minWidth: 160 }}
          options={PERIODS.map((period) => ({ value: period, label: t(`period.${period}`) }))}
          onChange={(period) => filter({ period })}
        />
        <Input.Search
          data-testid="alarm-filter-keyword"
          allowClear
          placeholder={t('filter.keyword')}
          enterButton={t('common.search')}
          style={{ width: 340 }}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        <Select<AlarmType>
          data-testid="alarm-filter-type"
          aria-label={t('filter.type')}
          placeholder={t('filter.type')}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 200 }}
          options={ALARM_TYPES.map((type) => ({ value: type, label: t(`alarmType.${type}`) }))}
          onChange={(alertType?: AlarmType) => filter({ alertType })}
        />
        <Select<1 | 2>
          data-testid="alarm-filter-level"
          aria-label={t('filter.level')}
          placeholder={t('filter.level')}
          allowClear
          style={{ minWidth: 160 }}
          options={([1, 2] as const).map((level) => ({ value: level, label: t(`levelOption.${level}`) }))}
          onChange={(alertLevel?: 1 | 2) => filter({ alertLevel })}
        />
        <PlaceFilter data-testid="alarm-filter-place" onChange={({ roomId, areaId }) => filter({ roomId, areaId })} />
        <ExportButton
          call={alarmExport}
          input={{ ...listFilters(filters), deal: tab === 'pending' ? 'pending' : 'processed' }}
          filename={t(tab === 'pending' ? 'file.pending' : 'file.resolved')}
        />
      </Space>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as AlarmTab)}
        items={[
          { key: 'pending', label: t('tab.pending'), children: table('pending') },
          { key: 'resolved', label: t('tab.resolved'), children: table('resolved') },
        ]}
      />
      {dialog?.kind === 'handle' && (
        <HandleAlarmDialog alarm={dialog.alarm} onDone={refresh} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'timeline' && <AlarmTimelineDrawer alarm={dialog.alarm} onClose={() => setDialog(null)} />}
    </div>
  );
};

export default AlarmLogPage;
