import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, Row, Select, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ContactFields } from './resident-form.ts';
import { phoneProblem, type PhoneProblem } from './resident-form.ts';
import { CONTACT_RELATIONS, hasControlChars, RESIDENT_LIMITS } from './resident-model.ts';
import {
  controlCharsMessage,
  maxLengthRule,
  phoneMessage,
  requiredRule,
  requiredTextRule,
} from '../../shared/ui/form-rules.ts';

/** What a contact's phone problem says: the console's shared wording, the duplicate its own. */
const PHONE_PROBLEM_TEXT: Record<PhoneProblem, (t: TFunction) => string> = {
  required: (t) => t('common.required'),
  invalid: phoneMessage,
  duplicate: (t) => t('phoneProblem.duplicate'),
};

/**
 * The editable list of emergency contacts (at most 5): name, phone and relation. Phones are
 * checked by the server's rule (relatives sign in with them later) and may not repeat.
 */
export const ContactsField = () => {
  const { t } = useTranslation('residents');
  return (
    <Form.List name="contacts">
      {(fields, { add, remove }) => (
        <div data-testid="contacts">
          {fields.length === 0 && <Typography.Paragraph type="secondary">{t('contacts.none')}</Typography.Paragraph>}
          {fields.map((field, index) => (
            <Row key={field.key} gutter={12} align="top" data-testid={`contact-${index}`}>
              {/* Registered so the contact's id reaches the request: an edited contact keeps its bindings. */}
              <Form.Item name={[field.name, 'id']} hidden noStyle>
                <Input type="hidden" />
              </Form.Item>
              <Col xs={24} sm={7}>
                <Form.Item
                  name={[field.name, 'name']}
                  label={t('contacts.name')}
                  rules={[
                    requiredTextRule(t),
                    maxLengthRule(t, RESIDENT_LIMITS.contactNameMaxLength),
                    {
                      validator: (_, value: string | undefined) =>
                        value && hasControlChars(value)
                          ? Promise.reject(new Error(controlCharsMessage(t)))
                          : Promise.resolve(),
                    },
                  ]}
                >
                  <Input maxLength={RESIDENT_LIMITS.contactNameMaxLength} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={9}>
                <Form.Item
                  name={[field.name, 'phone']}
                  label={t('contacts.phone')}
                  required
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_, value: string | undefined) => {
                        const all = (getFieldValue('contacts') ?? []) as ContactFields[];
                        const others = all.filter((_c, i) => i !== index).map((c) => c?.phone);
                        const problem = phoneProblem(value, others);
                        return problem ? Promise.reject(new Error(PHONE_PROBLEM_TEXT[problem](t))) : Promise.resolve();
                      },
                    }),
                  ]}
                >
                  <Input maxLength={RESIDENT_LIMITS.phoneMaxLength} inputMode="tel" autoComplete="off" />
                </Form.Item>
              </Col>
              <Col xs={18} sm={6}>
                <Form.Item name={[field.name, 'relation']} label={t('contacts.relation')} rules={[requiredRule(t)]}>
                  <Select options={CONTACT_RELATIONS.map((r) => ({ value: r, label: t(`relation.${r}`) }))} />
                </Form.Item>
              </Col>
              <Col xs={6} sm={2}>
                <Form.Item label=" " colon={false}>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('contacts.remove')}
                    title={t('contacts.remove')}
                    onClick={() => remove(field.name)}
                  />
                </Form.Item>
              </Col>
            </Row>
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            disabled={fields.length >= RESIDENT_LIMITS.maxContacts}
            onClick={() => add({ relation: 'child' } satisfies ContactFields)}
            data-testid="contact-add"
          >
            {t('contacts.add')}
          </Button>
          <Typography.Text type="secondary" style={{ marginInlineStart: 12 }}>
            {fields.length >= RESIDENT_LIMITS.maxContacts
              ? t('contacts.max', { max: RESIDENT_LIMITS.maxContacts })
              : t('contacts.phoneHint')}
          </Typography.Text>
        </div>
      )}
    </Form.List>
  );
};
