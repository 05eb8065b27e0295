import {
  deleteProvider,
  insertProvider,
  isPlatformRole,
  operateProvider,
  queryProviderList,
  restProviderPwd,
  type Provider,
  uploadLogo,
} from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { encryptPassword } from '../../shared/api/rsa.ts';
import { mayCall } from '../../shared/session/may-call.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { SESSION_QUERY_KEY } from '../../shared/session/useSessionRefresh.ts';
import { ConfirmLink, EnabledTag, EnableToggle, useShowInitialPassword } from '../../shared/ui/crud.tsx';
import { LoginLock } from '../../shared/ui/LoginLock.tsx';
import { LogoField } from '../../shared/ui/LogoField.tsx';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { maxLengthRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface ProviderFields {
  name: string;
  number?: string;
  userName: string;
  passWord?: string;
  parentId?: number;
  platformName?: string;
  logoUrl?: string | null;
  remark?: string;
}

/** What the list is narrowed to; every field travels to queryProviderList as is. */
interface ProviderFilters {
  keyWord?: string;
  enabled?: boolean;
  providerClass?: 1 | 2;
}
type EnabledChoice = 'enabled' | 'disabled';

const LOGIN_ACCOUNT_PATTERN = /^[A-Za-z0-9]{6,64}$/;

const blankToUndefined = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

const ProviderManagePage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const session = useSession();
  const platform = session.info ? isPlatformRole(session.info.role) : false;
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<ProviderFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [editing, setEditing] = useState<Provider | 'new' | null>(null);
  const [form] = Form.useForm<ProviderFields>();

  /** A narrower list may not have the current page, so every filter change starts at page 1. */
  const filter = (change: ProviderFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const list = useQuery({
    queryKey: ['providers', filters, page],
    queryFn: () => api(queryProviderList, { ...page, ...filters }),
  });
  const parents = useQuery({
    queryKey: ['providers', 'class1'],
    queryFn: () => api(queryProviderList, { providerClass: 1, pageNum: 1, pageSize: 1000 }),
    enabled: platform && editing === 'new',
  });

  useEffect(() => {
    if (params.get('action') === 'create') {
      setEditing('new');
      const next = new URLSearchParams(params);
      next.delete('action');
      setParams(next, { replace: true });
    }
  }, [params, setParams]);

  useEffect(() => {
    if (editing === null) return;
    form.resetFields();
    if (editing !== 'new') {
      form.setFieldsValue({
        name: editing.name,
        number: editing.number,
        userName: editing.userName ?? '',
        platformName: editing.platformName ?? undefined,
        logoUrl: editing.logoUrl,
        remark: editing.remark ?? undefined,
      });
    }
  }, [editing, form]);

  // The session's provider list changes with the providers (a new class 2 provider is choosable at once).
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['providers'] }),
      queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
    ]);
  const showPassword = useShowInitialPassword('providers.initialPassword');

  const save = useMutation({
    mutationFn: async (values: ProviderFields) => {
      if (editing && editing !== 'new') {
        await api(operateProvider, {
          id: editing.id,
          type: 'edit',
          name: values.name.trim(),
          number: blankToUndefined(values.number),
          platformName: blankToUndefined(values.platformName) ?? null,
          logoUrl: values.logoUrl ?? null,
          remark: blankToUndefined(values.remark) ?? null,
        });
        return null;
      }
      const password = values.passWord ? await encryptPassword(values.passWord) : undefined;
      return api(insertProvider, {
        name: values.name.trim(),
        number: blankToUndefined(values.number),
        userName: values.userName.trim(),
        passWord: password,
        rsa: Boolean(password),
        parentId: values.parentId,
        platformName: blankToUndefined(values.platformName),
        logoUrl: values.logoUrl ?? undefined,
        remark: blankToUndefined(values.remark),
      });
    },
    onSuccess: (result) => {
      setEditing(null);
      void message.success(t('platSet.saved'));
      void invalidate();
      showPassword(result?.initialPassword);
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    filter({ keyWord: undefined, enabled: undefined, providerClass: undefined });
  };
  const filtered = Object.values(filters).some((value) => value !== undefined);

  const operate = useMutation({
    mutationFn: (input: { id: number; type: 'enable' | 'disable' }) => api(operateProvider, input),
    onSuccess: () => void invalidate(),
    onError,
  });
  const reset = useMutation({
    mutationFn: (id: number) => api(restProviderPwd, { id }),
    onSuccess: (result) => showPassword(result.initialPassword),
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(deleteProvider, { id }),
    onSuccess: () => void invalidate(),
    onError,
  });

  const columns: ColumnsType<Provider> = [
    { title: t('providers.name'), dataIndex: 'name' },
    { title: t('providers.number'), dataIndex: 'number' },
    { title: t('providers.userName'), dataIndex: 'userName' },
    {
      title: t('providers.class'),
      dataIndex: 'providerClass',
      render: (c: 1 | 2) => t(c === 1 ? 'providers.class1' : 'providers.class2'),
    },
    { title: t('providers.parent'), dataIndex: 'parentName' },
    {
      title: t('common.status'),
      dataIndex: 'enabled',
      render: (enabled: boolean, row) => (
        <Space size={4} wrap>
          <EnabledTag enabled={enabled} />
          {row.userName && (
            <LoginLock userName={row.userName} lockedUntil={row.loginLockedUntil} listKey={['providers']} />
          )}
        </Space>
      ),
    },
    { title: t('common.createTime'), dataIndex: 'createTime', render: (time: string) => formatDateTime(time) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, row) => (
        <Space size="small" wrap>
          <Button type="link" size="small" onClick={() => setEditing(row)}>
            {t('common.edit')}
          </Button>
          <EnableToggle
            enabled={row.enabled}
            disableConfirm={t('providers.disableConfirm', { name: row.name })}
            onChange={(enable) => operate.mutateAsync({ id: row.id, type: enable ? 'enable' : 'disable' })}
          />
          <ConfirmLink
            label={t('providers.resetPassword')}
            title={t('providers.resetPassword')}
            content={t('providers.resetConfirm', { name: row.name })}
            onOk={() => reset.mutateAsync(row.id)}
          />
          <ConfirmLink
            danger
            label={t('common.delete')}
            title={t('common.delete')}
            content={t('providers.deleteConfirm', { name: row.name })}
            onOk={() => remove.mutateAsync(row.id)}
          />
        </Space>
      ),
    },
  ];

  const creating = editing === 'new';
  return (
    <div>
      <ScreenTitle route="providermanager" />
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="provider-search"
          allowClear
          placeholder={t('common.keyword')}
          enterButton={t('common.search')}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        <Select<EnabledChoice>
          data-testid="provider-filter-enabled"
          aria-label={t('common.status')}
          placeholder={t('common.status')}
          allowClear
          style={{ minWidth: 120 }}
          options={[
            { value: 'enabled', label: t('common.enabled') },
            { value: 'disabled', label: t('common.disabled') },
          ]}
          onChange={(choice?: EnabledChoice) =>
            filter({ enabled: choice === undefined ? undefined : choice === 'enabled' })
          }
        />
        {/* A class 1 login lists only its own class 2 providers, so only the platform can narrow by class. */}
        {platform && (
          <Select<1 | 2>
            data-testid="provider-filter-class"
            aria-label={t('providers.class')}
            placeholder={t('providers.class')}
            allowClear
            style={{ minWidth: 120 }}
            options={[
              { value: 1, label: t('providers.class1') },
              { value: 2, label: t('providers.class2') },
            ]}
            onChange={(providerClass?: 1 | 2) => filter({ providerClass })}
          />
        )}
        <Button type="primary" data-testid="provider-create" onClick={() => setEditing('new')}>
          {t('providers.create')}
        </Button>
      </Space>
      <PagedTable<Provider>
        data-testid="provider-table"
        rowKey="id"
        query={list}
        filters={{ filtered, onClearFilters: clearFilters }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      <Modal
        open={editing !== null}
        title={t(creating ? 'providers.create' : 'providers.edit')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        {...submit.modalProps(() => setEditing(null))}
        forceRender
      >
        <Form<ProviderFields> {...submit.formProps} layout="vertical" data-testid="provider-form">
          <Form.Item name="name" label={t('providers.name')} rules={[requiredTextRule(t), maxLengthRule(t, 64)]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="number"
            label={t('providers.number')}
            rules={[{ pattern: /^[A-Za-z0-9-]{1,32}$/, message: t('providers.numberRule') }]}
          >
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item
            name="userName"
            label={t('providers.userName')}
            extra={t('providers.accountRule')}
            rules={[requiredTextRule(t), { pattern: LOGIN_ACCOUNT_PATTERN, message: t('providers.accountRule') }]}
          >
            <Input maxLength={64} disabled={!creating} autoComplete="off" />
          </Form.Item>
          {creating && (
            <Form.Item name="passWord" label={t('providers.password')} extra={t('providers.passwordHint')}>
              <Input.Password maxLength={64} autoComplete="new-password" />
            </Form.Item>
          )}
          {creating && platform && (
            <Form.Item name="parentId" label={t('providers.parent')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                loading={parents.isFetching}
                options={(parents.data?.rows ?? []).map((p) => ({ value: p.id, label: p.name }))}
              />
            </Form.Item>
          )}
          <Form.Item name="platformName" label={t('providers.platformName')} rules={[maxLengthRule(t, 20)]}>
            <Input maxLength={20} showCount />
          </Form.Item>
          {mayCall(uploadLogo, session.info?.role) && (
            <Form.Item name="logoUrl" label={t('providers.logo')}>
              <LogoField testId="provider-logo" />
            </Form.Item>
          )}
          <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, 200)]}>
            <Input.TextArea maxLength={200} showCount rows={3} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
};

export default ProviderManagePage;
