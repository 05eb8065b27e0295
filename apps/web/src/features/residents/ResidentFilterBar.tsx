import { getAreaWithRoomList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Button, Cascader, Form, Input, InputNumber, Select, Space } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { compact, type ResidentFilters } from './list-params.ts';
import { placeFilter, placeOptions, placePath } from './place-tree.ts';
import { RESIDENT_LIMITS, RESIDENT_STATES, type Gender, type ResidentState } from './resident-model.ts';

interface FilterFields {
  keyWord?: string;
  state?: ResidentState;
  gender?: Gender;
  priority?: 'yes' | 'no';
  place?: number[];
  ageMin?: number | null;
  ageMax?: number | null;
}

const ageOrUndefined = (value: number | null | undefined) => (typeof value === 'number' ? value : undefined);

/**
 * The list's filters as one form: Search applies them together (page 1), Reset clears them.
 * A reversed age range is refused here, as the server would refuse it.
 */
export const ResidentFilterBar = (props: {
  filters: ResidentFilters;
  onSearch: (filters: ResidentFilters) => void;
}) => {
  const { t } = useTranslation('residents');
  const [form] = Form.useForm<FilterFields>();
  const places = useQuery({
    queryKey: ['residents', 'places'],
    queryFn: () => api(getAreaWithRoomList, {}),
  });
  const options = useMemo(() => placeOptions(places.data ?? []), [places.data]);
  const { filters } = props;

  // The address is the source of truth (back button, return from the edit page): show what is in force.
  useEffect(() => {
    form.setFieldsValue({
      keyWord: filters.keyWord,
      state: filters.state,
      gender: filters.gender,
      priority: filters.priority === undefined ? undefined : filters.priority ? 'yes' : 'no',
      place: placePath(places.data ?? [], filters),
      ageMin: filters.ageMin ?? null,
      ageMax: filters.ageMax ?? null,
    });
  }, [filters, places.data, form]);

  const search = (values: FilterFields) => {
    // A place chosen before the tree loaded (from the address) stays in force until the tree shows it.
    const place = values.place?.length ? placeFilter(values.place) : placeFilter(undefined);
    const keepAddressPlace = !places.data && (filters.areaId !== undefined || filters.roomId !== undefined);
    props.onSearch(
      compact({
        keyWord: values.keyWord?.trim() || undefined,
        state: values.state,
        gender: values.gender,
        priority: values.priority === undefined ? undefined : values.priority === 'yes',
        ...(keepAddressPlace ? { areaId: filters.areaId, roomId: filters.roomId } : place),
        ageMin: ageOrUndefined(values.ageMin),
        ageMax: ageOrUndefined(values.ageMax),
      }),
    );
  };

  return (
    <Form<FilterFields>
      form={form}
      layout="inline"
      data-testid="resident-filters"
      onFinish={search}
      style={{ rowGap: 12, marginBottom: 16 }}
    >
      <Form.Item name="keyWord">
        <Input
          allowClear
          aria-label={t('filter.keyword')}
          placeholder={t('filter.keyword')}
          maxLength={RESIDENT_LIMITS.keywordMaxLength}
          style={{ width: 220 }}
          data-testid="resident-keyword"
        />
      </Form.Item>
      <Form.Item name="state">
        <Select<ResidentState>
          allowClear
          aria-label={t('field.state')}
          placeholder={t('field.state')}
          style={{ width: 140 }}
          data-testid="resident-filter-state"
          options={RESIDENT_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="gender">
        <Select<Gender>
          allowClear
          aria-label={t('field.gender')}
          placeholder={t('field.gender')}
          style={{ width: 110 }}
          data-testid="resident-filter-gender"
          options={[
            { value: 0, label: t('gender.0') },
            { value: 1, label: t('gender.1') },
          ]}
        />
      </Form.Item>
      <Form.Item name="priority">
        <Select<'yes' | 'no'>
          allowClear
          aria-label={t('field.priority')}
          placeholder={t('field.priority')}
          style={{ width: 170 }}
          data-testid="resident-filter-priority"
          options={[
            { value: 'yes', label: t('filter.priorityOnly') },
            { value: 'no', label: t('filter.notPriority') },
          ]}
        />
      </Form.Item>
      <Form.Item name="place">
        <Cascader
          changeOnSelect
          allowClear
          showSearch
          aria-label={t('filter.place')}
          placeholder={t('filter.place')}
          style={{ width: 240 }}
          data-testid="resident-filter-place"
          loading={places.isFetching}
          options={options}
        />
      </Form.Item>
      <Form.Item label={t('filter.age')} data-testid="resident-age">
        <Space.Compact>
          <Form.Item name="ageMin" noStyle>
            <InputNumber
              min={0}
              max={RESIDENT_LIMITS.maxAgeYears}
              precision={0}
              aria-label={t('filter.ageMin')}
              placeholder={t('filter.ageMin')}
              style={{ width: 90 }}
              data-testid="resident-age-min"
            />
          </Form.Item>
          <Form.Item
            name="ageMax"
            noStyle
            dependencies={['ageMin']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value: number | null | undefined) => {
                  const min = getFieldValue('ageMin') as number | null | undefined;
                  return typeof min === 'number' && typeof value === 'number' && min > value
                    ? Promise.reject(new Error(t('filter.ageRange')))
                    : Promise.resolve();
                },
              }),
            ]}
          >
            <InputNumber
              min={0}
              max={RESIDENT_LIMITS.maxAgeYears}
              precision={0}
              aria-label={t('filter.ageMax')}
              placeholder={t('filter.ageMax')}
              style={{ width: 90 }}
              data-testid="resident-age-max"
            />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="resident-search">
            {t('common.search')}
          </Button>
          <Button
            data-testid="resident-reset"
            onClick={() => {
              form.resetFields();
              props.onSearch({});
            }}
          >
            {t('common.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
};
