import {
  APP_NOTES_MAX,
  APP_PLATFORMS,
  APP_STORE_URL_MAX,
  APP_VERSION_NAME_MAX,
  appVersionAdd,
  appVersionAddWithH5,
  appVersionDelete,
  appVersionList,
  appVersionOffShelf,
  appVersionUpdateStatus,
  RELEASE_STATES,
  type AppPackage,
  type AppPlatform,
  type AppVersion,
  type ReleaseState,
} from '@vigil/contract/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, Input, Modal, Radio, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { reloadCalls, useCall } from '../../shared/api/use-call.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { PackageField } from './PackageField.tsx';
import { blankToUndefined, isBuildNumber, isStoreUrl, isVersionName, STATE_COLOR } from './release-model.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';
import { maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface AppVersionFields {
  platform: AppPlatform;
  versionName: string;
  buildNumber: string;
  notes: string;
  storeUrl?: string;
  file?: AppPackage | null;
  force: boolean;
  withH5: boolean;
  h5VersionName?: string;
  h5File?: AppPackage | null;
}

interface Filters {
  platform?: AppPlatform;
  state?: ReleaseState;
}

const INITIAL_VALUES: Partial<AppVersionFields> = { platform: 'android', force: false, withH5: false };
/** Server fields the form names differently. */
const FIELD_ALIASES = { fileId: ['file'], h5FileId: ['h5File'] };
/** What a release change makes stale. */
const RELEASE_LISTS = ['appVersionList', 'appVersionReleaseList', 'h5VersionList'] as const;

/**
 * App versions (/appReleaseManage/appVersionDeployment): every saved iOS and Android version
 * with its build, forced-upgrade flag and state. A version is saved unpublished (from a store URL
 * or an uploaded APK, optionally with a new H5 package), then published (the app offers it), then
 * taken down; only an unpublished or taken-down one is deleted.
 */
const AppVersionPage = () => {
  const { t } = useTranslation('app-release');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [adding, setAdding] = useState(false);
  const [form] = Form.useForm<AppVersionFields>();
  const platform = Form.useWatch('platform', form);
  const withH5 = Form.useWatch('withH5', form);

  const list = useCall(appVersionList, { ...page, ...filters });
  const refresh = () => void reloadCalls(queryClient, RELEASE_LISTS);
  const filter = (change: Filters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };
  const filtered = filters.platform !== undefined || filters.state !== undefined;

  const save = useMutation({
    mutationFn: (v: AppVersionFields) => {
      const base = {
        platform: v.platform,
        versionName: v.versionName.trim(),
        buildNumber: v.buildNumber.trim(),
        notes: v.notes.trim(),
        storeUrl: blankToUndefined(v.storeUrl),
        fileId: v.platform === 'android' ? v.file?.fileId : undefined,
        force: v.force,
      };
      if (v.withH5 && v.h5File) {
        return api(appVersionAddWithH5, {
          ...base,
          h5VersionName: (v.h5VersionName ?? '').trim(),
          h5FileId: v.h5File.fileId,
        });
      }
      return api(appVersionAdd, base);
    },
    onSuccess: () => {
      setAdding(false);
      void message.success(t('saved'));
      refresh();
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync, { fieldAliases: FIELD_ALIASES });
  const open = () => {
    form.resetFields();
    submit.markSaved();
    setAdding(true);
  };

  const publish = useMutation({
    mutationFn: (id: number) => api(appVersionUpdateStatus, { id, type: 'app', state: 'published' }),
    onSuccess: () => {
      void message.success(t('done.published'));
      refresh();
    },
    onError,
  });
  const takeDown = useMutation({
    mutationFn: (id: number) => api(appVersionOffShelf, { id, type: 'app' }),
    onSuccess: () => {
      void message.success(t('done.offShelf'));
      refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(appVersionDelete, { id }),
    onSuccess: () => {
      void message.success(t('done.deleted'));
      refresh();
    },
    onError,
  });

  const nameOf = (row: AppVersion) => `${t(`platform.${row.platform}`)} ${row.versionName} (${row.buildNumber})`;
  const columns: ColumnsType<AppVersion> = [
    { title: t('column.platform'), dataIndex: 'platform', render: (p: AppPlatform) => t(`platform.${p}`) },
    { title: t('column.versionName'), dataIndex: 'versionName' },
    { title: t('column.buildNumber'), dataIndex: 'buildNumber' },
    {
      title: t('column.force'),
      dataIndex: 'force',
      render: (force: boolean) => (force ? <Tag color="red">{t('common.yes')}</Tag> : t('common.no')),
    },
    {
      title: t('column.state'),
      dataIndex: 'state',
      render: (state: ReleaseState) => <Tag color={STATE_COLOR[state]}>{t(`state.${state}`)}</Tag>,
    },
    { title: t('column.uploadTime'), dataIndex: 'uploadTime', render: (time: string) => formatDateTime(time) },
    {
      title: t('column.notes'),
      dataIndex: 'notes',
      render: (notes: string) => (
        <Typography.Paragraph style={{ maxWidth: 320, marginBottom: 0 }} ellipsis={{ rows: 2, tooltip: notes }}>
          {notes}
        </Typography.Paragraph>
      ),
    },
    {
      title: t('column.source'),
      key: 'source',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          {row.storeUrl && (
            <Typography.Link href={row.storeUrl} target="_blank" rel="noreferrer">
              {t('source.store')}
            </Typography.Link>
          )}
          {row.file &&
            // Served only while the version is published.
            (row.state === 'published' ? (
              <Typography.Link href={row.file.downloadUrl}>{row.file.fileName}</Typography.Link>
            ) : (
              <Typography.Text>{row.file.fileName}</Typography.Text>
            ))}
          {row.h5 && (
            <Typography.Text type="secondary">{t('source.h5', { version: row.h5.versionName })}</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size="small" wrap>
          {row.state === 'unpublished' && (
            <ConfirmLink
              label={t('action.publish')}
              title={t('action.publish')}
              content={t('confirm.publish', { name: nameOf(row) })}
              onOk={() => publish.mutateAsync(row.id)}
            />
          )}
          {row.state === 'published' && (
            <ConfirmLink
              danger
              label={t('action.offShelf')}
              title={t('action.offShelf')}
              content={t('confirm.offShelf', { name: nameOf(row) })}
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

  return (
    <div>
      <ScreenTitle route="appVersionDeployment" />
      <Typography.Paragraph type="secondary">{t('app.note')}</Typography.Paragraph>
      <Space style={{ marginBottom: 16 }} wrap>
        <Select<AppPlatform>
          data-testid="app-filter-platform"
          aria-label={t('column.platform')}
          placeholder={t('column.platform')}
          allowClear
          style={{ minWidth: 140 }}
          value={filters.platform}
          options={APP_PLATFORMS.map((p) => ({ value: p, label: t(`platform.${p}`) }))}
          onChange={(p?: AppPlatform) => filter({ platform: p })}
        />
        <Select<ReleaseState>
          data-testid="app-filter-state"
          aria-label={t('column.state')}
          placeholder={t('column.state')}
          allowClear
          style={{ minWidth: 140 }}
          value={filters.state}
          options={RELEASE_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
          onChange={(s?: ReleaseState) => filter({ state: s })}
        />
        <Button type="primary" data-testid="app-add" onClick={open}>
          {t('app.add')}
        </Button>
      </Space>
      <PagedTable<AppVersion>
        data-testid="app-table"
        rowKey="id"
        query={list}
        filters={{ filtered, onClearFilters: () => filter({ platform: undefined, state: undefined }) }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      <Modal
        open={adding}
        title={t('app.add')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        width={640}
        {...submit.modalProps(() => setAdding(false))}
        forceRender
      >
        <Form<AppVersionFields>
          {...submit.formProps}
          layout="vertical"
          data-testid="app-form"
          initialValues={INITIAL_VALUES}
        >
          <Form.Item name="platform" label={t('form.platform')} rules={[requiredRule(t)]}>
            <Radio.Group
              data-testid="app-form-platform"
              options={APP_PLATFORMS.map((p) => ({ value: p, label: t(`platform.${p}`) }))}
            />
          </Form.Item>
          <Space size="middle" align="start" wrap>
            <Form.Item
              name="versionName"
              label={t('form.versionName')}
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
              <Input maxLength={APP_VERSION_NAME_MAX} placeholder="2.10.3" />
            </Form.Item>
            <Form.Item
              name="buildNumber"
              label={t('form.buildNumber')}
              extra={t('form.buildNumberRule')}
              rules={[
                requiredTextRule(t),
                {
                  validator: (_, value?: string) =>
                    !value?.trim() || isBuildNumber(value.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('form.buildNumberRule'))),
                },
              ]}
            >
              <Input maxLength={20} inputMode="numeric" placeholder="210300" />
            </Form.Item>
          </Space>
          <Form.Item
            name="notes"
            label={t('form.notes')}
            rules={[requiredTextRule(t), maxLengthRule(t, APP_NOTES_MAX)]}
          >
            <Input.TextArea maxLength={APP_NOTES_MAX} showCount rows={4} data-testid="app-form-notes" />
          </Form.Item>
          <Form.Item
            name="storeUrl"
            label={t('form.storeUrl')}
            extra={t(platform === 'ios' ? 'form.storeUrlIos' : 'form.storeUrlRule')}
            dependencies={['file', 'platform']}
            rules={[
              {
                validator: (_, value?: string) => {
                  const url = value?.trim();
                  if (url) {
                    return isStoreUrl(url) ? Promise.resolve() : Promise.reject(new Error(t('form.storeUrlRule')));
                  }
                  const hasPackage = form.getFieldValue('platform') === 'android' && form.getFieldValue('file');
                  return hasPackage ? Promise.resolve() : Promise.reject(new Error(t('form.sourceRule')));
                },
              },
            ]}
          >
            <Input maxLength={APP_STORE_URL_MAX} placeholder="https://" />
          </Form.Item>
          {platform === 'android' && (
            <Form.Item name="file" label={t('form.package')}>
              <PackageField kind="apk" testId="app-form-package" />
            </Form.Item>
          )}
          <Form.Item name="force" valuePropName="checked" extra={t('form.forceHelp')}>
            <Checkbox data-testid="app-form-force">{t('form.force')}</Checkbox>
          </Form.Item>
          <Form.Item name="withH5" valuePropName="checked">
            <Checkbox data-testid="app-form-with-h5">{t('form.withH5')}</Checkbox>
          </Form.Item>
          {withH5 && (
            <>
              <Form.Item
                name="h5VersionName"
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
                <Input maxLength={APP_VERSION_NAME_MAX} />
              </Form.Item>
              <Form.Item name="h5File" label={t('form.h5Package')} rules={[requiredRule(t)]}>
                <PackageField kind="h5" testId="app-form-h5-package" />
              </Form.Item>
            </>
          )}
        </Form>
      </Modal>
    </div>
  );
};

export default AppVersionPage;
