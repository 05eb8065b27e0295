import { residentList, type EndpointResult } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Select, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../shared/api/client.ts';
import { LIMITS } from './caregiver-model.ts';
import { useCaregiverTexts } from './useCaregiverTexts.ts';

type ResidentRow = EndpointResult<typeof residentList>['rows'][number];
interface ResidentRef {
  id: number;
  name: string;
}

/** How many matches one search shows: enough to choose from, small enough to answer fast. */
const SEARCH_PAGE = 50;
const SEARCH_DELAY_MS = 300;

/** Where the resident lives, for telling two of the same name apart. */
const placeOf = (r: ResidentRow): string =>
  [r.areaName, r.floorName, r.roomName, r.bedName].filter((part): part is string => Boolean(part)).join(' / ');

/**
 * The residents a caregiver looks after (at most 100): searched on the server by name as the user
 * types (userList), so it works for any number of residents. Chosen residents keep their names
 * while other searches run.
 */
export const ResidentPicker = (props: {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Residents already linked (their names, before any search has run). */
  linked: readonly ResidentRef[];
  id?: string;
}) => {
  const { t } = useCaregiverTexts();
  const [typed, setTyped] = useState('');
  const [keyWord, setKeyWord] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyWord(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const search = useQuery({
    queryKey: ['caregivers', 'residents', keyWord],
    queryFn: () => api(residentList, { pageNum: 1, pageSize: SEARCH_PAGE, keyWord: keyWord || undefined }),
  });

  /** Every resident name seen so far, so a chosen one stays labelled whatever the search shows. */
  const [names, setNames] = useState<ReadonlyMap<number, string>>(
    () => new Map(props.linked.map((r) => [r.id, r.name])),
  );
  useEffect(() => {
    const rows = search.data?.rows;
    if (!rows?.length) return;
    setNames((current) => new Map([...current, ...rows.map((r): [number, string] => [r.id, r.name])]));
  }, [search.data]);

  const value = useMemo(() => props.value ?? [], [props.value]);
  const options = useMemo(() => {
    const rows = search.data?.rows ?? [];
    const shown = new Set(rows.map((r) => r.id));
    return [
      ...value.filter((id) => !shown.has(id)).map((id) => ({ value: id, label: names.get(id) ?? `#${id}`, place: '' })),
      ...rows.map((r) => ({ value: r.id, label: r.name, place: placeOf(r) })),
    ];
  }, [search.data, value, names]);

  return (
    <Select<number[], (typeof options)[number]>
      id={props.id}
      mode="multiple"
      data-testid="resident-picker"
      value={value}
      onChange={(ids) => props.onChange?.(ids)}
      options={options}
      maxCount={LIMITS.residentsMax}
      placeholder={t('field.residentsSearch')}
      loading={search.isFetching}
      notFoundContent={search.isFetching ? t('common.loading') : t('field.residentsNone')}
      showSearch={{ filterOption: false, onSearch: setTyped, autoClearSearchValue: false }}
      onBlur={() => setTyped('')}
      optionRender={(option) => (
        <Space size="small">
          <span>{option.data.label}</span>
          {option.data.place && <Typography.Text type="secondary">{option.data.place}</Typography.Text>}
        </Space>
      )}
      style={{ width: '100%' }}
    />
  );
};
