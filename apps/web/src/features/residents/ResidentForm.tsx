import {
  Card,
  Checkbox,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Switch,
  type FormInstance,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ContactsField } from './ContactsField.tsx';
import { BIRTH_DATE_FORMAT, birthDateProblem, type ResidentFormValues } from './resident-form.ts';
import { hasControlChars, MEDICAL_HISTORY, RESIDENT_LIMITS } from './resident-model.ts';
import { useCareOptions } from './useCareOptions.ts';
import { controlCharsMessage, maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

const half = { xs: 24, md: 12 } as const;

/**
 * Every field of a resident (NewResidentSchema) in four groups: person, health, emergency
 * contacts, care. The rules are the server's, so a user learns before sending.
 */
export const ResidentForm = (props: {
  form: FormInstance<ResidentFormValues>;
  initialValues: ResidentFormValues;
  linkedCarers?: readonly { id: number; name: string }[];
  onFinish: (values: ResidentFormValues) => void;
  /** The user changed a value (the form becomes unsaved). */
  onValuesChange?: () => void;
}) => {
  const { t } = useTranslation('residents');
  const care = useCareOptions(props.linkedCarers);
  const history = Form.useWatch('medicalHistory', props.form) ?? props.initialValues.medicalHistory ?? [];

  const noControl = (allowBreaks: boolean) => ({
    validator: (_: unknown, value: string | undefined) =>
      value && hasControlChars(value, allowBreaks)
        ? Promise.reject(new Error(controlCharsMessage(t)))
        : Promise.resolve(),
  });
  const tooLong = (max: number) => maxLengthRule(t, max);
  const bodySize = (unit: string) => ({
    type: 'integer' as const,
    min: 1,
    max: RESIDENT_LIMITS.bodySizeMax,
    message: t('form.bodySize', { max: RESIDENT_LIMITS.bodySizeMax, unit }),
  });

  return (
    <Form<ResidentFormValues>
      form={props.form}
      layout="vertical"
      initialValues={props.initialValues}
      onFinish={props.onFinish}
      onValuesChange={props.onValuesChange}
      scrollToFirstError
      data-testid="resident-form"
    >
      <Card title={t('edit.person')} size="small" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item
              name="name"
              label={t('field.name')}
              rules={[requiredTextRule(t), tooLong(RESIDENT_LIMITS.nameMaxLength), noControl(false)]}
            >
              <Input maxLength={RESIDENT_LIMITS.nameMaxLength} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="gender" label={t('field.gender')} rules={[requiredRule(t)]}>
              <Radio.Group
                options={[
                  { value: 0, label: t('gender.0') },
                  { value: 1, label: t('gender.1') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="birthDate"
              label={t('field.birthDate')}
              required
              rules={[
                {
                  validator: (_, value: Dayjs | null | undefined) => {
                    const problem = birthDateProblem(value);
                    return problem
                      ? Promise.reject(
                          new Error(
                            problem === 'required'
                              ? t('common.required')
                              : t(`birthDate.${problem}`, { max: RESIDENT_LIMITS.maxAgeYears }),
                          ),
                        )
                      : Promise.resolve();
                  },
                },
              ]}
            >
              <DatePicker
                format={BIRTH_DATE_FORMAT}
                style={{ width: '100%' }}
                disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                data-testid="resident-birth-date"
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="height" label={t('field.height')} rules={[bodySize('cm')]}>
              <InputNumber precision={0} suffix="cm" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="weight" label={t('field.weight')} rules={[bodySize('kg')]}>
              <InputNumber precision={0} suffix="kg" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('edit.health')} size="small" style={{ marginBottom: 16 }}>
        <Form.Item name="medicalHistory" label={t('field.medicalHistory')}>
          <Checkbox.Group options={MEDICAL_HISTORY.map((m) => ({ value: m, label: t(`history.${m}`) }))} />
        </Form.Item>
        {history.includes('others') && (
          <Form.Item
            name="otherHistory"
            label={t('field.otherHistory')}
            rules={[tooLong(RESIDENT_LIMITS.otherHistoryMaxLength), noControl(true)]}
          >
            <Input.TextArea rows={2} maxLength={RESIDENT_LIMITS.otherHistoryMaxLength} showCount />
          </Form.Item>
        )}
      </Card>

      <Card title={t('field.contacts')} size="small" style={{ marginBottom: 16 }}>
        <ContactsField />
      </Card>

      <Card title={t('edit.care')} size="small" style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item
              name="caregiverIds"
              label={t('field.carers')}
              extra={t('form.carersHint', { max: RESIDENT_LIMITS.maxCarers })}
              rules={[
                {
                  type: 'array',
                  max: RESIDENT_LIMITS.maxCarers,
                  message: t('form.carersMax', { max: RESIDENT_LIMITS.maxCarers }),
                },
              ]}
            >
              <Select
                mode="multiple"
                allowClear
                maxCount={RESIDENT_LIMITS.maxCarers}
                optionFilterProp="label"
                loading={care.loadingCarers}
                options={care.carerOptions}
                placeholder={t('form.pickCarers')}
                data-testid="resident-carers"
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="communityId" label={t('field.community')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                loading={care.loadingCommunities}
                options={care.communityOptions}
                placeholder={t('form.pickCommunity')}
              />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="priority"
              label={t('field.priority')}
              valuePropName="checked"
              extra={t('form.priorityHint')}
            >
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item
              name="remark"
              label={t('common.remark')}
              rules={[tooLong(RESIDENT_LIMITS.remarkMaxLength), noControl(true)]}
            >
              <Input.TextArea rows={3} maxLength={RESIDENT_LIMITS.remarkMaxLength} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Card>
    </Form>
  );
};
