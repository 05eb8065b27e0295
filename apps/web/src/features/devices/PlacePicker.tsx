import { getBunkConfiguration, queryNursingList, residentList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Button, Cascader, Select, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { errorMessageOf } from '../../shared/ui/list-state.tsx';
import { placeOptions } from './device-place.ts';

/**
 * The facility tree with its beds, the one the bed forms use; shared by the device screens. With a
 * provider, only that provider's (the server filters: an administrator's tree holds every home).
 */
export const usePlaceTree = (providerId?: number) =>
  useQuery({
    queryKey: ['devices', 'placeTree', providerId ?? 'all'],
    queryFn: () => api(getBunkConfiguration, providerId === undefined ? {} : { providerId }),
    staleTime: 30_000,
  });

/** What a place cascader shows when the tree could not be read: why, and a retry. */
export const PlaceTreeFailure = ({ tree }: { tree: ReturnType<typeof usePlaceTree> }) => {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={4} style={{ padding: 8 }} data-testid="place-tree-error">
      <Typography.Text type="danger">{errorMessageOf(tree.error, t('list.loadFailed'))}</Typography.Text>
      <Button size="small" onClick={() => void tree.refetch()}>
        {t('list.retry')}
      </Button>
    </Space>
  );
};

/**
 * Where a device is: an area, a floor, a room or a bed of its provider, picked at any level
 * (changeOnSelect); clearing it leaves the place not set.
 */
export const PlacePicker = (props: {
  value?: number[];
  onChange?: (path: number[]) => void;
  providerId?: number;
  id?: string;
}) => {
  const { t } = useTranslation('devices');
  const tree = usePlaceTree(props.providerId);
  const options = useMemo(() => placeOptions(tree.data?.areas ?? [], props.providerId), [tree.data, props.providerId]);
  return (
    <Cascader
      id={props.id}
      data-testid="device-place"
      changeOnSelect
      allowClear
      showSearch
      value={props.value}
      options={options}
      loading={tree.isFetching}
      status={tree.isError ? 'error' : undefined}
      notFoundContent={tree.isError ? <PlaceTreeFailure tree={tree} /> : undefined}
      placeholder={t('place.pickerPlaceholder')}
      onChange={(path?: (string | number)[]) => props.onChange?.((path ?? []).map(Number))}
    />
  );
};

const SEARCH_PAGE = 50;
const SEARCH_DELAY_MS = 300;

/**
 * Who wears a badge (a resident) or a nurse watch (a caregiver): searched on the server by name as
 * the user types; the current wearer keeps their name before any search.
 */
export const WearerPicker = (props: {
  who: 'resident' | 'caregiver';
  value?: number | null;
  onChange?: (id: number | null) => void;
  /** The wearer the device has, labelled before any search ran. */
  current?: { id: number; name: string } | null;
  id?: string;
}) => {
  const { t } = useTranslation('devices');
  const [typed, setTyped] = useState('');
  const [keyWord, setKeyWord] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyWord(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const search = useQuery({
    queryKey: ['devices', 'wearers', props.who, keyWord],
    queryFn: async () => {
      const query = { pageNum: 1, pageSize: SEARCH_PAGE, keyWord: keyWord || undefined };
      const page = props.who === 'resident' ? await api(residentList, query) : await api(queryNursingList, query);
      return page.rows.map((row) => ({ value: row.id, label: row.name }));
    },
  });
  const options = useMemo(() => {
    const found = search.data ?? [];
    const current = props.current;
    return current && !found.some((o) => o.value === current.id)
      ? [{ value: current.id, label: current.name }, ...found]
      : found;
  }, [search.data, props.current]);
  return (
    <Select<number>
      id={props.id}
      data-testid="device-wearer"
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={props.value ?? undefined}
      options={options}
      loading={search.isFetching}
      placeholder={t(props.who === 'resident' ? 'place.residentPlaceholder' : 'place.caregiverPlaceholder')}
      onChange={(id?: number) => props.onChange?.(id ?? null)}
    />
  );
};
