import { getAreaList, insertArea, updateArea } from '@vigil/contract/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import { REMARK_MAX, SORT_MAX } from '../facility-model.ts';
import { placeNameRules } from '../form-rules.ts';
import { useProviderOptions } from '../useFacilityAccess.ts';
import type { PlaceDialog } from './place-actions.ts';
import { maxLengthRule, requiredRule } from '../../../shared/ui/form-rules.ts';

type AreaMode = Extract<PlaceDialog, { kind: 'addArea' | 'addFloor' | 'editArea' | 'editFloor' }>;

interface AreaFields {
  name: string;
  sort?: number | null;
  remark?: string;
  providerId?: number;
}

const TITLES: Record<AreaMode['kind'], string> = {
  addArea: 'area.addTitle',
  addFloor: 'area.addFloorTitle',
  editArea: 'area.editTitle',
  editFloor: 'area.editFloorTitle',
};

/**
 * Adds or edits an area/building or a floor/unit: name, sort order and remark. A platform viewer
 * adding an area names its provider (the provider filter's, if one is chosen).
 */
export const AreaDialog = (props: {
  mode: AreaMode;
  platform: boolean;
  providerId: number | undefined;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const { mode } = props;
  const { t } = useTranslation('facility');
  const [form] = Form.useForm<AreaFields>();
  const askProvider = mode.kind === 'addArea' && props.platform;
  const providers = useProviderOptions(askProvider);
  const editing = mode.kind === 'editArea' ? mode.area : mode.kind === 'editFloor' ? mode.floor : null;

  // The tree carries no remark, so an edit reads the row (its floors, or areas by name) first.
  const detail = useQuery({
    queryKey: ['facility', 'area-detail', mode.kind, editing?.id],
    queryFn: async () => {
      const page =
        mode.kind === 'editFloor'
          ? await api(getAreaList, { pageNum: 1, pageSize: 1000, areaId: mode.area.id })
          : await api(getAreaList, {
              pageNum: 1,
              pageSize: 1000,
              keyWord: editing?.name,
              providerId: mode.kind === 'editArea' ? mode.area.providerId : undefined,
            });
      return page.rows.find((row) => row.id === editing?.id) ?? null;
    },
    enabled: editing !== null,
  });

  useEffect(() => {
    if (editing) form.setFieldsValue({ name: editing.name, sort: editing.sort });
    else form.setFieldsValue({ providerId: props.providerId });
  }, [editing, form, props.providerId]);
  useEffect(() => {
    // Only fill the remark if the user has not started typing one.
    if (detail.data && !form.isFieldTouched('remark')) form.setFieldsValue({ remark: detail.data.remark ?? '' });
  }, [detail.data, form]);

  const save = useMutation({
    mutationFn: async (values: AreaFields) => {
      const remark = values.remark?.trim() ?? '';
      const sort = values.sort ?? undefined;
      if (mode.kind === 'editArea' || mode.kind === 'editFloor') {
        const id = mode.kind === 'editArea' ? mode.area.id : mode.floor.id;
        await api(updateArea, { id, name: values.name.trim(), sort, remark: remark || null });
        return;
      }
      await api(insertArea, {
        name: values.name.trim(),
        areaId: mode.kind === 'addFloor' ? mode.area.id : undefined,
        providerId: mode.kind === 'addArea' ? values.providerId : undefined,
        sort,
        remark: remark || undefined,
      });
    },
    onSuccess: props.onSaved,
  });
  const submit = useFormSubmit(form, save.mutateAsync);

  return (
    <Modal
      open
      title={t(TITLES[mode.kind], { area: mode.kind === 'addArea' ? '' : mode.area.name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Form<AreaFields> layout="vertical" data-testid="area-form" {...submit.formProps}>
        {askProvider && (
          <Form.Item name="providerId" label={t('field.provider')} rules={[requiredRule(t)]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={providers.isFetching}
              options={providers.data ?? []}
            />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          required
          label={t(mode.kind === 'addFloor' || mode.kind === 'editFloor' ? 'area.floorName' : 'area.name')}
          extra={t('rule.nameHint')}
          rules={placeNameRules(t)}
        >
          <Input maxLength={64} autoFocus />
        </Form.Item>
        <Form.Item name="sort" label={t('area.sort')} extra={t('area.sortHint')}>
          <InputNumber min={0} max={SORT_MAX} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, REMARK_MAX)]}>
          <Input.TextArea maxLength={REMARK_MAX} showCount rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
