import { Cascader } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { placeFilterOf, placeFilterOptions, type PlaceFilterChoice } from './device-place.ts';
import { PlaceTreeFailure, usePlaceTree } from './PlacePicker.tsx';

/**
 * A list's place filter: an area, a floor or a room, and for devices "Place not set". Applies at
 * once; the alarm log uses it too (without "not set": every alarm is raised somewhere or nowhere).
 */
export const PlaceFilter = (props: {
  onChange: (filter: PlaceFilterChoice) => void;
  /** Offer "Place not set" (the device lists). */
  unplaced?: boolean;
  'data-testid'?: string;
}) => {
  const { t } = useTranslation('devices');
  const tree = usePlaceTree();
  const options = useMemo(
    () => placeFilterOptions(tree.data?.areas ?? [], props.unplaced ? t('place.notSet') : null),
    [tree.data, props.unplaced, t],
  );
  return (
    <Cascader
      changeOnSelect
      allowClear
      showSearch
      placeholder={t('place.filter')}
      aria-label={t('place.filter')}
      style={{ minWidth: 200 }}
      data-testid={props['data-testid'] ?? 'place-filter'}
      loading={tree.isFetching}
      status={tree.isError ? 'error' : undefined}
      notFoundContent={tree.isError ? <PlaceTreeFailure tree={tree} /> : undefined}
      options={options}
      onChange={(path?: (string | number)[]) => props.onChange(placeFilterOf(path))}
    />
  );
};
