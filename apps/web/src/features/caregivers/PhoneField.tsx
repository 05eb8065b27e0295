import { Form, Input, Select, Space } from 'antd';
import { useMemo } from 'react';
import type { CaregiverFields } from './caregiver-form.ts';
import { phoneOf } from './caregiver-form.ts';
import { normalisePhone } from './caregiver-model.ts';
import { COUNTRY_CODES, regionName } from './country-codes.ts';
import { useCaregiverTexts } from './useCaregiverTexts.ts';
import { phoneMessage, requiredTextRule } from '../../shared/ui/form-rules.ts';

const PHONE_MAX = 32;

/**
 * The mobile number, checked as the server checks it (a mainland mobile or +country code E.164).
 * Domestic: one field, 11 digits expected. Overseas: a country-code selector and the number.
 */
export const PhoneField = () => {
  const { t, v, variant } = useCaregiverTexts();
  const required = requiredTextRule(t);

  if (variant === 'domestic') {
    return (
      <Form.Item<CaregiverFields>
        name="phone"
        label={v('field.phone')}
        extra={v('field.phoneHint')}
        rules={[
          required,
          {
            validator: (_, value: string | undefined) =>
              !value?.trim() || normalisePhone(value) !== null
                ? Promise.resolve()
                : Promise.reject(new Error(phoneMessage(t))),
          },
        ]}
      >
        <Input maxLength={PHONE_MAX} inputMode="tel" autoComplete="off" placeholder={v('field.phonePlaceholder')} />
      </Form.Item>
    );
  }
  return <InternationalPhone />;
};

const InternationalPhone = () => {
  const { t, v, language } = useCaregiverTexts();
  const codes = useMemo(
    () =>
      COUNTRY_CODES.map((c) => {
        const region = regionName(c.region, language);
        return { value: c.code, label: `+${c.code} ${region}`, search: `${c.code} +${c.code} ${region}` };
      }),
    [language],
  );
  return (
    <Form.Item<CaregiverFields> label={v('field.phone')} required extra={v('field.phoneHint')}>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item<CaregiverFields> name="countryCode" noStyle>
          <Select
            aria-label={t('field.countryCode')}
            data-testid="country-code"
            style={{ width: 110 }}
            options={codes}
            labelRender={(label) => `+${String(label.value)}`}
            showSearch={{ optionFilterProp: 'search' }}
            popupMatchSelectWidth={260}
          />
        </Form.Item>
        <Form.Item<CaregiverFields>
          name="phone"
          noStyle
          dependencies={['countryCode']}
          rules={[
            requiredTextRule(t),
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) => {
                if (!value?.trim()) return Promise.resolve();
                const full = phoneOf({ countryCode: getFieldValue('countryCode') as string, phone: value }, 'overseas');
                return normalisePhone(full) !== null
                  ? Promise.resolve()
                  : Promise.reject(new Error(v('field.phoneInvalid')));
              },
            }),
          ]}
        >
          <Input
            aria-label={v('field.phone')}
            maxLength={PHONE_MAX}
            inputMode="tel"
            autoComplete="off"
            placeholder={v('field.phonePlaceholder')}
          />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
};
