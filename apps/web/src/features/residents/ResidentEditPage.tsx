import { getResident } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Result, Space, Spin, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { formatTime } from './format.ts';
import { EMPTY_RESIDENT, formValuesOf, type ResidentFormValues } from './resident-form.ts';
import { LIST_PATH, placeOf, STATE_COLOURS, type ResidentDetail, type ReturnState } from './resident-model.ts';
import { ResidentForm } from './ResidentForm.tsx';
import { useResidentSave } from './useResidentSave.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** `?id=N` edits resident N; no id registers a new one; anything else is not a resident. */
const idOf = (raw: string | null): number | undefined | 'bad' => {
  if (raw === null) return undefined;
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : 'bad';
};

/** Occupancy is read-only here: it changes by check-in and check-out on the list. */
const Occupancy = ({ resident }: { resident: ResidentDetail }) => {
  const { t } = useTranslation('residents');
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} style={{ marginBottom: 16 }} data-testid="occupancy">
      <Descriptions.Item label={t('field.state')}>
        <Tag color={STATE_COLOURS[resident.state]}>{t(`state.${resident.state}`)}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('field.place')}>{placeOf(resident) || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.admittedAt')}>{formatTime(resident.admittedAt) || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.checkedOutAt')}>{formatTime(resident.checkedOutAt) || '-'}</Descriptions.Item>
    </Descriptions>
  );
};

/**
 * Register or edit a resident (/people-manage/addAndEdit/addAndEditUser). Saving returns to the
 * list the user came from, with its filters and page.
 */
const ResidentEditPage = () => {
  const { t } = useTranslation('residents');
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const id = idOf(params.get('id'));
  const editing = typeof id === 'number' ? id : undefined;
  const [form] = Form.useForm<ResidentFormValues>();

  const listSearch = (location.state as ReturnState | null)?.listSearch;
  const back = () => void navigate(listSearch ? `${LIST_PATH}?${listSearch}` : LIST_PATH);
  const save = useResidentSave(editing, back);
  const submit = useFormSubmit(form, save.mutateAsync);

  const detail = useQuery({
    queryKey: ['residents', 'detail', editing],
    queryFn: () => api(getResident, { id: editing ?? 0 }),
    enabled: editing !== undefined,
    // A refetch must not reset what is being typed.
    refetchOnWindowFocus: false,
  });
  const initialValues = useMemo(() => (detail.data ? formValuesOf(detail.data) : EMPTY_RESIDENT), [detail.data]);

  // The screen's name (as its tab says), then what is being done on it.
  const title = (
    <>
      <ScreenTitle route="addAndEditUser" style={{ marginBottom: 4 }} />
      <Typography.Paragraph type="secondary" data-testid="edit-subject">
        {editing === undefined ? t('edit.createTitle') : t('edit.editTitle', { name: detail.data?.name ?? '' })}
      </Typography.Paragraph>
    </>
  );
  if (id === 'bad') {
    return (
      <Result status="404" title={t('edit.notFound')} extra={<Button onClick={back}>{t('edit.backToList')}</Button>} />
    );
  }
  if (editing !== undefined && !detail.data) {
    return (
      <div>
        {title}
        {detail.isError ? (
          <Alert
            type="error"
            showIcon
            title={detail.error instanceof ApiError ? detail.error.message : t('edit.loadFailed')}
            action={<Button onClick={back}>{t('edit.backToList')}</Button>}
          />
        ) : (
          <Spin />
        )}
      </div>
    );
  }

  return (
    <div style={{ maxWidth: 1080 }}>
      {title}
      {detail.data && <Occupancy resident={detail.data} />}
      <ResidentForm
        key={detail.data ? `${detail.data.id}:${detail.data.updateTime}` : 'new'}
        form={form}
        initialValues={initialValues}
        linkedCarers={detail.data?.carers}
        onFinish={submit.formProps.onFinish}
        onValuesChange={submit.formProps.onValuesChange}
      />
      <Space>
        <Button type="primary" loading={submit.pending} onClick={submit.submit} data-testid="resident-save">
          {t('common.save')}
        </Button>
        <Button onClick={() => submit.confirmLeave(back)} data-testid="resident-cancel">
          {t('common.cancel')}
        </Button>
      </Space>
    </div>
  );
};

export default ResidentEditPage;
