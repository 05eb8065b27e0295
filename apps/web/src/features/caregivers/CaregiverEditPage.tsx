/**
 * Create or edit a caregiver (/nurse-manage/addAndEditNurse; ?id=N edits). Same calls and fields
 * in both variants of the spec (doc 1 §2), chosen by the server's overseas edition (session info `abroad`):
 * - domestic: "caregiver" (护理员) wording; one phone field expecting an 11-digit mainland mobile
 *   (an international +number is still accepted, as the server accepts it); a QR code to install
 *   the caregiver app beside the form.
 * - overseas: "care staff" (护理人员) wording of an international care home; a country-code
 *   selector (first choice: the interface language's country) and the national number, a leading
 *   trunk 0 dropped, or a whole number typed with +; the app hint points to the app stores instead
 *   of a QR code, as the shell's overseas download guide does.
 * Creating answers the app login and its generated password, shown once. A refused save keeps the
 * form as typed and puts the server's message on the field it concerns.
 */
import { ApiError, insertNursing, operateNursing } from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, Radio, Result, Row, Space, Spin, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { AppHint } from './AppHint.tsx';
import { initialFields, phoneOf, toEdit, toInsert, type CaregiverFields } from './caregiver-form.ts';
import {
  CAREGIVER_LEVELS,
  hasControlChars,
  LIMITS,
  LOGIN_ACCOUNT_PATTERN,
  normalisePhone,
  type CaregiverRow,
} from './caregiver-model.ts';
import { defaultCountryCode } from './country-codes.ts';
import { LIST_PATH } from './paths.ts';
import { PhoneField } from './PhoneField.tsx';
import { ResidentPicker } from './ResidentPicker.tsx';
import { useCaregiverTexts } from './useCaregiverTexts.ts';
import { useEditedCaregiver } from './useEditedCaregiver.ts';
import { useShowAppCredentials } from './useShowAppCredentials.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { controlCharsMessage, maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

const parseId = (raw: string | null): number | null => {
  if (raw === null) return null;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : NaN;
};

const CaregiverForm = ({ caregiver }: { caregiver: CaregiverRow | null }) => {
  const { t, v, variant, levelLabel, language } = useCaregiverTexts();
  const [form] = Form.useForm<CaregiverFields>();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const showCredentials = useShowAppCredentials();
  // Fixed at mount: later renders must not reset what the user typed.
  const [initial] = useState(() => initialFields(caregiver, variant, defaultCountryCode(language)));
  const phone = Form.useWatch('phone', form);
  const countryCode = Form.useWatch('countryCode', form);
  const creating = caregiver === null;

  const save = useMutation({
    mutationFn: async (fields: CaregiverFields) => {
      if (caregiver) {
        await api(operateNursing, toEdit(caregiver.id, fields, variant));
        return null;
      }
      return api(insertNursing, toInsert(fields, variant));
    },
    onSuccess: (created, fields) => {
      void queryClient.invalidateQueries({ queryKey: ['caregivers'] });
      if (created) {
        showCredentials(
          { name: fields.name.trim(), userName: created.userName, password: created.initialPassword },
          'created',
        );
      } else void message.success(t('form.saved'));
      void navigate(LIST_PATH);
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync);

  const noControl =
    (allowLines = false): Rule =>
    () => ({
      validator: (_, value: string | undefined) =>
        value && hasControlChars(value, allowLines)
          ? Promise.reject(new Error(controlCharsMessage(t)))
          : Promise.resolve(),
    });
  const maxLength = (max: number): Rule => maxLengthRule(t, max);

  /** What the login will be when no account name is typed: the phone as the server stores it. */
  const defaultLogin = normalisePhone(phoneOf({ countryCode, phone: phone ?? '' }, variant));

  return (
    <Form<CaregiverFields>
      {...submit.formProps}
      layout="vertical"
      data-testid="caregiver-form"
      initialValues={initial}
      scrollToFirstError
    >
      <Form.Item<CaregiverFields>
        name="name"
        label={v('field.name')}
        rules={[requiredTextRule(t), maxLength(LIMITS.nameMax), noControl()]}
      >
        <Input maxLength={LIMITS.nameMax} autoComplete="off" />
      </Form.Item>
      <PhoneField />
      {creating ? (
        <Form.Item<CaregiverFields>
          name="userName"
          label={t('field.userName')}
          extra={defaultLogin ? t('field.userNameDefault', { phone: defaultLogin }) : t('field.userNameRule')}
          rules={[{ pattern: LOGIN_ACCOUNT_PATTERN, message: t('field.userNameRule') }]}
        >
          <Input maxLength={LIMITS.loginMax} autoComplete="off" placeholder={t('field.userNamePlaceholder')} />
        </Form.Item>
      ) : (
        <Form.Item label={t('field.userName')} extra={t('field.userNameFixed')}>
          <Input value={caregiver.userName ?? ''} disabled />
        </Form.Item>
      )}
      <Form.Item<CaregiverFields> name="job" label={v('field.job')} rules={[maxLength(LIMITS.jobMax), noControl()]}>
        <Input maxLength={LIMITS.jobMax} autoComplete="off" placeholder={v('field.jobPlaceholder')} />
      </Form.Item>
      <Form.Item<CaregiverFields> name="level" label={t('field.level')} rules={[requiredRule(t)]}>
        <Radio.Group
          optionType="button"
          options={CAREGIVER_LEVELS.map((level) => ({ value: level, label: levelLabel(level) }))}
        />
      </Form.Item>
      <Form.Item<CaregiverFields>
        name="residentIds"
        label={t('field.residents')}
        extra={t('field.residentsHint', { max: LIMITS.residentsMax })}
        rules={[
          {
            validator: (_, ids: number[] | undefined) =>
              (ids?.length ?? 0) > LIMITS.residentsMax
                ? Promise.reject(new Error(t('field.residentsMax', { max: LIMITS.residentsMax })))
                : Promise.resolve(),
          },
        ]}
      >
        <ResidentPicker linked={caregiver?.residents ?? []} />
      </Form.Item>
      <Form.Item<CaregiverFields>
        name="remark"
        label={t('common.remark')}
        rules={[maxLength(LIMITS.remarkMax), noControl(true)]}
      >
        <Input.TextArea maxLength={LIMITS.remarkMax} showCount rows={3} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={submit.pending} data-testid="caregiver-save">
          {t('common.save')}
        </Button>
        <Button onClick={() => submit.confirmLeave(() => void navigate(LIST_PATH))}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
};

const CaregiverEditPage = () => {
  const { t, v } = useCaregiverTexts();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = parseId(params.get('id'));
  const lookup = useEditedCaregiver(Number.isNaN(id) ? null : id);
  const back = (
    <Button type="primary" onClick={() => void navigate(LIST_PATH)}>
      {t('form.backToList')}
    </Button>
  );

  let body;
  if (id === null) body = <CaregiverForm caregiver={null} />;
  else if (Number.isNaN(id) || (lookup.isSuccess && !lookup.data))
    body = <Result status="404" title={v('form.notFound')} extra={back} data-testid="caregiver-not-found" />;
  else if (lookup.isError)
    body = (
      <Result
        status="error"
        title={lookup.error instanceof ApiError ? lookup.error.message : t('common.unknownError')}
        extra={
          <Space>
            <Button onClick={() => void lookup.refetch()}>{t('form.retry')}</Button>
            {back}
          </Space>
        }
      />
    );
  else if (!lookup.data) body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else body = <CaregiverForm key={lookup.data.id} caregiver={lookup.data} />;

  return (
    <div>
      {/* The screen's name (as its tab says), then what is being done on it. */}
      <ScreenTitle route="addAndEditNurse" style={{ marginBottom: 4 }} />
      <Typography.Paragraph type="secondary" data-testid="edit-subject">
        {id === null ? v('createTitle') : v('editTitle')}
      </Typography.Paragraph>
      <Row gutter={[24, 16]}>
        <Col xs={24} xl={15}>
          <Card>{body}</Card>
        </Col>
        <Col xs={24} xl={9}>
          <AppHint />
        </Col>
      </Row>
    </div>
  );
};

export default CaregiverEditPage;
