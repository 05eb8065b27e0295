import {
  CREATABLE_ROLES,
  insertAccount,
  operateAccount,
  queryAccountList,
  queryProviderList,
  type Account,
  type Role,
} from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Radio, Select, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { ConfirmLink, EnabledTag, EnableToggle, useShowInitialPassword } from '../../shared/ui/crud.tsx';
import { LoginLock } from '../../shared/ui/LoginLock.tsx';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface AccountFields {
  userName: string;
  nickName: string;
  role?: Role;
  permissionType: 0 | 1;
  providerIds?: number[];
  remark?: string;
}

/** What the list is narrowed to; every field travels to queryAccountList as is. */
interface AccountFilters {
  keyWord?: string;
  role?: Role;
  enabled?: boolean;
}
type EnabledChoice = 'enabled' | 'disabled';

const LOGIN_ACCOUNT_PATTERN = /^[A-Za-z0-9]{6,64}$/;
/** Roles allowed to call queryProviderList. */
const PROVIDER_LISTERS: readonly Role[] = ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE', 'ONE_ROLE'];

const AccountManagePage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const session = useSession();
  const role = session.info?.role;
  const creatable = role ? (CREATABLE_ROLES[role] ?? []) : [];
  const canListProviders = role ? PROVIDER_LISTERS.includes(role) : false;
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<AccountFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [editing, setEditing] = useState<Account | 'new' | null>(null);
  const [form] = Form.useForm<AccountFields>();
  const permissionType = Form.useWatch('permissionType', form);

  /** A narrower list may not have the current page, so every filter change starts at page 1. */
  const filter = (change: AccountFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const list = useQuery({
    queryKey: ['accounts', filters, page],
    queryFn: () => api(queryAccountList, { ...page, ...filters }),
  });
  const providers = useQuery({
    queryKey: ['providers', 'all-options'],
    queryFn: () => api(queryProviderList, { pageNum: 1, pageSize: 1000 }),
    enabled: canListProviders && editing !== null && permissionType === 1,
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
    if (editing === 'new') form.setFieldsValue({ permissionType: 0 });
    else
      form.setFieldsValue({
        userName: editing.userName,
        nickName: editing.nickName,
        role: editing.role,
        permissionType: editing.permissionType === 1 ? 1 : 0,
        providerIds: editing.providerIds,
        remark: editing.remark ?? undefined,
      });
  }, [editing, form]);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['accounts'] });
  const showPassword = useShowInitialPassword('accounts.initialPassword');

  const save = useMutation({
    mutationFn: async (values: AccountFields) => {
      const providerIds = values.permissionType === 1 ? (values.providerIds ?? []) : [];
      const remark = values.remark?.trim() ? values.remark.trim() : undefined;
      if (editing && editing !== 'new') {
        await api(operateAccount, {
          id: editing.id,
          type: 'edit',
          nickName: values.nickName.trim(),
          permissionType: values.permissionType,
          providerIds,
          remark: remark ?? null,
        });
        return null;
      }
      return api(insertAccount, {
        userName: values.userName.trim(),
        nickName: values.nickName.trim(),
        role: values.role as Role,
        rsa: false,
        permissionType: values.permissionType,
        providerIds,
        remark,
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
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters({});
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const operate = useMutation({
    mutationFn: (input: { id: number; type: 'enable' | 'disable' | 'resetPassword' }) => api(operateAccount, input),
    onSuccess: (result) => {
      void invalidate();
      showPassword(result?.initialPassword);
    },
    onError,
  });

  const columns: ColumnsType<Account> = [
    { title: t('accounts.userName'), dataIndex: 'userName' },
    { title: t('accounts.nickName'), dataIndex: 'nickName' },
    { title: t('accounts.role'), dataIndex: 'role', render: (r: Role) => t(`role.${r}`) },
    { title: t('accounts.provider'), dataIndex: 'providerName' },
    {
      title: t('common.status'),
      dataIndex: 'enabled',
      render: (enabled: boolean, row) => (
        <Space size={4} wrap>
          <EnabledTag enabled={enabled} />
          <LoginLock userName={row.userName} lockedUntil={row.lockedUntil} listKey={['accounts']} />
        </Space>
      ),
    },
    {
      title: t('accounts.lastLogin'),
      dataIndex: 'lastLoginTime',
      render: (time: string | null) => formatDateTime(time),
    },
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
            disableConfirm={t('accounts.disableConfirm', { name: row.userName })}
            onChange={(enable) => operate.mutateAsync({ id: row.id, type: enable ? 'enable' : 'disable' })}
          />
          <ConfirmLink
            label={t('accounts.resetPassword')}
            title={t('accounts.resetPassword')}
            content={t('accounts.resetConfirm', { name: row.userName })}
            onOk={() => operate.mutateAsync({ id: row.id, type: 'resetPassword' })}
          />
        </Space>
      ),
    },
  ];

  const creating = editing === 'new';
  const editRow = editing !== null && editing !== 'new' ? editing : null;
  return (
    <div>
      <ScreenTitle route="accountmanager" />
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="account-search"
          allowClear
          placeholder={t('common.keyword')}
          enterButton={t('common.search')}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        {/* The server lists only the roles the caller may create, so those are the ones worth offering. */}
        <Select<Role>
          data-testid="account-filter-role"
          aria-label={t('accounts.role')}
          placeholder={t('accounts.role')}
          allowClear
          style={{ minWidth: 140 }}
          options={creatable.map((r) => ({ value: r, label: t(`role.${r}`) }))}
          onChange={(filteredRole?: Role) => filter({ role: filteredRole })}
        />
        <Select<EnabledChoice>
          data-testid="account-filter-enabled"
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
        {creatable.length > 0 && (
          <Button type="primary" data-testid="account-create" onClick={() => setEditing('new')}>
            {t('accounts.create')}
          </Button>
        )}
      </Space>
      <PagedTable<Account>
        data-testid="account-table"
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
        title={t(creating ? 'accounts.create' : 'accounts.edit')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        {...submit.modalProps(() => setEditing(null))}
        forceRender
      >
        <Form<AccountFields>
          layout="vertical"
          data-testid="account-form"
          initialValues={{ permissionType: 0 }}
          {...submit.formProps}
        >
          <Form.Item
            name="userName"
            label={t('accounts.userName')}
            extra={creating ? t('providers.accountRule') : undefined}
            rules={[requiredTextRule(t), { pattern: LOGIN_ACCOUNT_PATTERN, message: t('providers.accountRule') }]}
          >
            <Input maxLength={64} disabled={!creating} autoComplete="off" />
          </Form.Item>
          <Form.Item name="nickName" label={t('accounts.nickName')} rules={[requiredTextRule(t), maxLengthRule(t, 64)]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="role" label={t('accounts.role')} rules={[requiredRule(t)]}>
            <Select
              disabled={!creating}
              options={(creating ? creatable : editRow ? [editRow.role] : []).map((r) => ({
                value: r,
                label: t(`role.${r}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="permissionType" label={t('accounts.dataPermission')}>
            <Radio.Group>
              <Radio value={0}>{t('accounts.permissionAll')}</Radio>
              <Radio value={1}>{t('accounts.permissionSelected')}</Radio>
            </Radio.Group>
          </Form.Item>
          {permissionType === 1 && canListProviders && (
            <Form.Item name="providerIds" label={t('accounts.providers')}>
              <Select
                mode="multiple"
                allowClear
                optionFilterProp="label"
                loading={providers.isFetching}
                options={(providers.data?.rows ?? []).map((p) => ({ value: p.id, label: p.name }))}
              />
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

export default AccountManagePage;
