import {
  APP_VERSION_NAME_MAX,
  appVersionOffShelf,
  appVersionUpdateStatus,
  h5VersionAdd,
  h5VersionDelete,
  h5VersionList,
  h5VersionUpdate,
  RELEASE_STATES,
  type AppPackage,
  type H5Version,
  type ReleaseState,
} from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { reloadCalls, useCall } from '../../shared/api/use-call.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { PackageField } from './PackageField.tsx';
import { isVersionName, sizeText, STATE_COLOR } from './release-model.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface H5Fields {
  versionName: string;
  file?: AppPackage | null;
}

const RELEASE_LISTS = ['h5VersionList', 'appVersionList', 'appVersionReleaseList'] as const;

/** A stored package as the form shows it (the list carries what the upload answered, bar the upload time). */
const asPackage = (row: H5Version): AppPackage => ({
  fileId: row.file.fileId,
  packageType: 'h5',
  fileName: row.file.fileName,
  size: row.file.size,
  sha256: row.file.sha256,
  uploadTime: row.uploadTime,
});

/**
 * H5 packages (/appReleaseManage/versionDeployment): zips of the pages the app shows. A package
 * is saved unpublished (edited while it is), published, and taken down; only an unpublished or
 * taken-down one is deleted.
 */
const H5VersionPage = () => {
  const { t } = useTranslation('app-release');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [state, setState] = useState<ReleaseState | undefined>();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [editing, setEditing] = useState<H5Version | 'new' | null>(null);
  const [form] = Form.useForm<H5Fields>();

  const list = useCall(h5VersionList, { ...page, state });
  const refresh = () => void reloadCalls(queryClient, RELEASE_LISTS);

  useEffect(() => {
    if (editing === null) return;
    form.resetFields();
    if (editing !== 'new') form.setFieldsValue({ versionName: editing.versionName, file: asPackage(editing) });
  }, [editing, form]);

  const save = useMutation({
    mutationFn: async (v: H5Fields) => {
      const versionName = v.versionName.trim();
      if (editing && editing !== 'new') {
        const fileId = v.file?.fileId;
        return api(h5VersionUpdate, {
          id: editing.id,
          versionName,
          fileId: fileId === editing.file.fileId ? undefined : fileId,
        });
      }
      return api(h5VersionAdd, { versionName, fileId: v.file?.fileId ?? 0 });
    },
    onSuccess: () => {
      setEditing(null);
      void message.success(t('saved'));
      refresh();
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync, { fieldAliases: { fileId: ['file'] } });

  const publish = useMutation({
    mutationFn: (id: number) => api(appVersionUpdateStatus, { id, type: 'h5', state: 'published' }),
    onSuccess: () => {
      void message.success(t('done.published'));
      refresh();
    },
    onError,
  });
  const takeDown = useMutation({
    mutationFn: (id: number) => api(appVersionOffShelf, { id, type: 'h5' }),
    onSuccess: () => {
      void message.success(t('done.offShelf'));
      refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(h5VersionDelete, { id }),
    onSuccess: () => {
      void message.success(t('done.deleted'));
      refresh();
    },
    onError,
  });

  const nameOf = (row: H5Version) => `H5 ${row.versionName}`;
  const columns: ColumnsType<H5Version> = [
    { title: t('column.versionName'), dataIndex: 'versionName' },
    {
      title: t('column.file'),
      key: 'file',
      render: (_, row) => {
        const label = `${row.file.fileName} (${sizeText(row.file.size)})`;
        // Served only while the package is published.
        return row.state === 'published' ? (
          <Typography.Link href={row.file.downloadUrl}>{label}</Typography.Link>
        ) : (
          label
        );
      },
    },
    {
      title: t('column.state'),
      dataIndex: 'state',
      render: (s: ReleaseState) => <Tag color={STATE_COLOR[s]}>{t(`state.${s}`)}</Tag>,
    },
    { title: t('column.uploadTime'), dataIndex: 'uploadTime', render: (time: string) => formatDateTime(time) },
    {
      title: t('column.publishTime'),
      dataIndex: 'publishTime',
      render: (time: string | null) => formatDateTime(time),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size="small" wrap>
          {row.state === 'unpublished' && (
            <>
              <Button type="link" size="small" onClick={() => setEditing(row)}>
                {t('common.edit')}
              </Button>
              <ConfirmLink
                label={t('action.publish')}
                title={t('action.publish')}
                content={t('confirm.publishH5', { name: nameOf(row) })}
                onOk={() => publish.mutateAsync(row.id)}
              />
            </>
          )}
          {row.state === 'published' && (
            <ConfirmLink
              danger
              label={t('action.offShelf')}
              title={t('action.offShelf')}
              content={t('confirm.offShelfH5', { name: nameOf(row) })}
              onOk={() => takeDown.mutateAsync(row.id)}
            />
          )}
          <ConfirmLink
            danger
            label={t('common.delete')}
            title={t('common.delete')}
            content={t('confirm.delete', { name: nameOf(row) })}
            refusal={row.state === 'published' ? t('refusal.deletePublished') : undefined}
            onOk={() => remove.mutateAsync(row.id)}
          />
        </Space>
      ),
    },
  ];

  const creating = editing === 'new';
  return (
    <div>
      <ScreenTitle route="versionDeployment" />
      <Typography.Paragraph type="secondary">{t('h5.note')}</Typography.Paragraph>
      <Space style={{ marginBottom: 16 }} wrap>
        <Select<ReleaseState>
          data-testid="h5-filter-state"
          aria-label={t('column.state')}
          placeholder={t('column.state')}
          allowClear
          style={{ minWidth: 140 }}
          value={state}
          options={RELEASE_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          onChange={(s?: ReleaseState) => {
            setState(s);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
        />
        <Button type="primary" data-testid="h5-add" onClick={() => setEditing('new')}>
          {t('h5.add')}
        </Button>
      </Space>
      <PagedTable<H5Version>
        data-testid="h5-table"
        rowKey="id"
        query={list}
        filters={{ filtered: state !== undefined, onClearFilters: () => setState(undefined) }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      <Modal
        open={editing !== null}
        title={t(creating ? 'h5.add' : 'h5.edit')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        {...submit.modalProps(() => setEditing(null))}
        forceRender
      >
        <Form<H5Fields> {...submit.formProps} layout="vertical" data-testid="h5-form">
          <Form.Item
            name="versionName"
            label={t('form.h5VersionName')}
            extra={t('form.versionNameRule')}
            rules={[
              requiredTextRule(t),
              {
                validator: (_, value?: string) =>
                  !value?.trim() || isVersionName(value.trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('form.versionNameRule'))),
              },
            ]}
          >
            <Input maxLength={APP_VERSION_NAME_MAX} placeholder="1.4.0" />
          </Form.Item>
          <Form.Item name="file" label={t('form.h5Package')} rules={[requiredRule(t)]}>
            <PackageField kind="h5" testId="h5-form-package" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
};

export default H5VersionPage;
