import { getAreaWithRoomList, LIVE_STATES, type LiveStateFilter } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Cascader, Input, Select, Space } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { areaOptions, areaPath, type MonitorListView } from './list-view.ts';

type Filters = Pick<MonitorListView, 'keyWord' | 'state' | 'areaId'>;

/** Key word, live state and area/floor of the resident list; each change applies at once. */
export const ResidentListFilters = (props: { view: MonitorListView; onChange: (change: Filters) => void }) => {
  const { t } = useTranslation('real-monitor');
  const places = useQuery({ queryKey: ['residents', 'places'], queryFn: () => api(getAreaWithRoomList, {}) });
  const options = useMemo(() => areaOptions(places.data ?? []), [places.data]);
  const { view, onChange } = props;
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input.Search
        key={view.keyWord ?? ''}
        defaultValue={view.keyWord}
        allowClear
        maxLength={64}
        placeholder={t('filter.keyword')}
        aria-label={t('filter.keyword')}
        enterButton={t('common.search')}
        style={{ width: 300, maxWidth: '100%' }}
        data-testid="monitor-filter-keyword"
        onSearch={(value) => onChange({ keyWord: value.trim() || undefined })}
      />
      <Select<LiveStateFilter>
        allowClear
        value={view.state}
        placeholder={t('filter.state')}
        aria-label={t('filter.state')}
        style={{ minWidth: 160 }}
        data-testid="monitor-filter-state"
        options={LIVE_STATES.map((state) => ({ value: state, label: t(`filter.stateOption.${state}`) }))}
        onChange={(state?: LiveStateFilter) => onChange({ state })}
      />
      <Cascader
        changeOnSelect
        allowClear
        showSearch
        value={areaPath(places.data ?? [], view.areaId)}
        placeholder={t('filter.area')}
        aria-label={t('filter.area')}
        style={{ minWidth: 200 }}
        data-testid="monitor-filter-area"
        loading={places.isFetching}
        options={options}
        onChange={(path?: number[]) => onChange({ areaId: path?.at(-1) })}
      />
    </Space>
  );
};
