import { batchAddBunk, failureData, type NameProblem } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Radio, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../shared/api/client.ts';
import { useApiError } from '../../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import { MATTRESSES, NAME_LIST_REFUSALS, PLACE_BATCH_MAX, REMARK_MAX, type Mattress } from '../facility-model.ts';
import { nameListRules } from '../form-rules.ts';
import { NameProblems } from '../places/NameProblems.tsx';
import type { PlaceDialog } from '../places/place-actions.ts';
import { maxLengthRule } from '../../../shared/ui/form-rules.ts';

interface BedFields {
  name: string;
  mattress: Mattress;
  remark?: string;
}

/**
 * Adds one bed or several (comma-separated names) to a room. All or nothing: a refused list
 * names every bad bed and keeps what was typed.
 */
export const AddBedsDialog = (props: {
  mode: Extract<PlaceDialog, { kind: 'addBeds' }>;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const { area, floor, room } = props.mode;
  const { t } = useTranslation('facility');
  const onError = useApiError();
  const [form] = Form.useForm<BedFields>();
  const [refusal, setRefusal] = useState<{ message: string; problems: NameProblem[] } | null>(null);

  const save = useMutation({
    mutationFn: (values: BedFields) =>
      api(batchAddBunk, {
        roomId: room.id,
        name: values.name.trim(),
        mattress: values.mattress,
        remark: values.remark?.trim() || undefined,
      }),
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
      title={t('bed.addTitle', { path: `${area.name} / ${floor.name} / ${room.name}` })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Form<BedFields>
          layout="vertical"
          data-testid="add-beds-form"
          initialValues={{ mattress: 'sponge' }}
          {...submit.formProps}
        >
          <Form.Item
            name="name"
            required
            label={t('bed.names')}
            extra={t('bed.namesHint', { max: PLACE_BATCH_MAX })}
            rules={nameListRules(t)}
          >
            <Input.TextArea rows={3} maxLength={4000} placeholder={t('bed.namesPlaceholder')} autoFocus />
          </Form.Item>
          <Form.Item name="mattress" label={t('bed.mattress')}>
            <Radio.Group
              optionType="button"
              options={MATTRESSES.map((m) => ({ value: m, label: t(`mattress.${m}`) }))}
            />
          </Form.Item>
          <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, REMARK_MAX)]}>
            <Input.TextArea maxLength={REMARK_MAX} showCount rows={2} />
          </Form.Item>
        </Form>
        {refusal && <NameProblems message={refusal.message} problems={refusal.problems} />}
      </Space>
    </Modal>
  );
};
