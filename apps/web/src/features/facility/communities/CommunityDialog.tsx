import { insertCommunity, updateCommunity } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { useFormSubmit } from '../../../shared/ui/useFormSubmit.ts';
import { REMARK_MAX, type Community } from '../facility-model.ts';
import { useProviderOptions } from '../useFacilityAccess.ts';
import { COMMUNITY_LIMITS, hasControlChars, isValidPhone } from './community-rules.ts';
import {
  controlCharsMessage,
  maxLengthRule,
  phoneMessage,
  requiredRule,
  requiredTextRule,
} from '../../../shared/ui/form-rules.ts';

interface CommunityFields {
  name: string;
  address?: string;
  contact?: string;
  phone?: string;
  remark?: string;
  providerId?: number;
}

const blankToUndefined = (value: string | undefined) => value?.trim() || undefined;

/** Creates a community (a platform viewer names its provider), or edits one: `community`. */
export const CommunityDialog = (props: {
  platform: boolean;
  community?: Community;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const { t } = useTranslation('facility');
  const [form] = Form.useForm<CommunityFields>();
  const editing = props.community;
  const providers = useProviderOptions(props.platform && !editing);

  const oneLine = (max: number): Rule[] => [
    maxLengthRule(t, max),
    {
      validator: (_, value?: string) =>
        value && hasControlChars(value) ? Promise.reject(new Error(controlCharsMessage(t))) : Promise.resolve(),
    },
  ];

  const save = useMutation({
    mutationFn: async (values: CommunityFields) => {
      if (editing) {
        // An emptied field is cleared, not left as it was.
        await api(updateCommunity, {
          id: editing.id,
          name: values.name.trim(),
          address: blankToUndefined(values.address) ?? null,
          contact: blankToUndefined(values.contact) ?? null,
          phone: blankToUndefined(values.phone) ?? null,
          remark: blankToUndefined(values.remark) ?? null,
        });
        return;
      }
      await api(insertCommunity, {
        name: values.name.trim(),
        address: blankToUndefined(values.address),
        contact: blankToUndefined(values.contact),
        phone: blankToUndefined(values.phone),
        remark: blankToUndefined(values.remark),
        providerId: values.providerId,
      });
    },
    onSuccess: props.onSaved,
  });
  const submit = useFormSubmit(form, save.mutateAsync);

  return (
    <Modal
      open
      title={editing ? t('community.edit', { name: editing.name }) : t('community.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      mask={{ closable: false }}
    >
      <Form<CommunityFields>
        layout="vertical"
        data-testid="community-form"
        {...submit.formProps}
        initialValues={
          editing
            ? {
                name: editing.name,
                address: editing.address ?? undefined,
                contact: editing.contact ?? undefined,
                phone: editing.phone ?? undefined,
                remark: editing.remark ?? undefined,
              }
            : undefined
        }
      >
        {props.platform && !editing && (
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
          label={t('community.name')}
          rules={[requiredTextRule(t), ...oneLine(COMMUNITY_LIMITS.name)]}
        >
          <Input maxLength={COMMUNITY_LIMITS.name} autoFocus />
        </Form.Item>
        <Form.Item name="address" label={t('community.address')} rules={oneLine(COMMUNITY_LIMITS.address)}>
          <Input maxLength={COMMUNITY_LIMITS.address} />
        </Form.Item>
        <Form.Item name="contact" label={t('community.contact')} rules={oneLine(COMMUNITY_LIMITS.contact)}>
          <Input maxLength={COMMUNITY_LIMITS.contact} />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('community.phone')}
          extra={t('community.phoneHint')}
          rules={[
            {
              validator: (_, value?: string) =>
                value?.trim() && !isValidPhone(value.trim())
                  ? Promise.reject(new Error(phoneMessage(t)))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input maxLength={COMMUNITY_LIMITS.phone} />
        </Form.Item>
        <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, REMARK_MAX)]}>
          <Input.TextArea maxLength={REMARK_MAX} showCount rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
