import { failureData, getRoomListByAreaId, insertRoom, updateRoom, type NameProblem } from '@vigil/contract/browser';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../shared/api/client.ts';
import { useApiError } from '../../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import { NAME_LIST_REFUSALS, PLACE_BATCH_MAX, REMARK_MAX } from '../facility-model.ts';
import { nameListRules, placeNameRules } from '../form-rules.ts';
import { NameProblems } from './NameProblems.tsx';
import type { PlaceDialog } from './place-actions.ts';
import { maxLengthRule } from '../../../shared/ui/form-rules.ts';

type RoomMode = Extract<PlaceDialog, { kind: 'addRooms' | 'editRoom' }>;

interface RoomFields {
  name: string;
  remark?: string;
}

/**
 * Adds rooms to a floor — one or several at once from a comma-separated list, all or nothing —
 * or renames a room and edits its remark. A refused list shows every bad name.
 */
export const RoomDialog = (props: { mode: RoomMode; onClose: () => void; onSaved: () => void }) => {
  const { mode } = props;
  const { t } = useTranslation('facility');
  const onError = useApiError();
  const [form] = Form.useForm<RoomFields>();
  const [refusal, setRefusal] = useState<{ message: string; problems: NameProblem[] } | null>(null);
  const adding = mode.kind === 'addRooms';
  const path = `${mode.area.name} / ${mode.floor.name}`;

  const detail = useQuery({
    queryKey: ['facility', 'room-detail', mode.floor.id],
    queryFn: () => api(getRoomListByAreaId, { areaId: mode.floor.id }),
    enabled: !adding,
    select: (rooms) => (mode.kind === 'editRoom' ? rooms.find((r) => r.id === mode.room.id) : undefined),
  });
  useEffect(() => {
    if (mode.kind === 'editRoom') form.setFieldsValue({ name: mode.room.name });
  }, [mode, form]);
  useEffect(() => {
    if (detail.data && !form.isFieldTouched('remark')) form.setFieldsValue({ remark: detail.data.remark ?? '' });
  }, [detail.data, form]);

  const save = useMutation({
    mutationFn: async (values: RoomFields) => {
      const remark = values.remark?.trim() ?? '';
      if (mode.kind === 'editRoom') {
        await api(updateRoom, { id: mode.room.id, name: values.name.trim(), remark: remark || null });
        return;
      }
      await api(insertRoom, { floorId: mode.floor.id, name: values.name.trim(), remark: remark || undefined });
    },
    onMutate: () => setRefusal(null),
    onSuccess: props.onSaved,
  });
  const submit = useFormSubmit(form, save.mutateAsync, {
    onError: (error) => {
      const problems = failureData(error, ...NAME_LIST_REFUSALS)?.problems;
      if (problems?.length && error instanceof ApiError) setRefusal({ message: error.message, problems });
      else onError(error);
    },
  });

  return (
    <Modal
      open
      title={t(adding ? 'room.addTitle' : 'room.editTitle', { path })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Form<RoomFields> layout="vertical" data-testid="room-form" {...submit.formProps}>
          <Form.Item
            name="name"
            required
            label={t(adding ? 'room.names' : 'room.name')}
            extra={adding ? t('room.namesHint', { max: PLACE_BATCH_MAX }) : t('rule.nameHint')}
            rules={adding ? nameListRules(t) : placeNameRules(t)}
          >
            {adding ? (
              <Input.TextArea rows={3} maxLength={4000} placeholder={t('room.namesPlaceholder')} autoFocus />
            ) : (
              <Input maxLength={64} autoFocus />
            )}
          </Form.Item>
          <Form.Item
            name="remark"
            label={t('common.remark')}
            extra={adding ? t('room.remarkHint') : undefined}
            rules={[maxLengthRule(t, REMARK_MAX)]}
          >
            <Input.TextArea maxLength={REMARK_MAX} showCount rows={2} />
          </Form.Item>
        </Form>
        {refusal && <NameProblems message={refusal.message} problems={refusal.problems} />}
      </Space>
    </Modal>
  );
};
