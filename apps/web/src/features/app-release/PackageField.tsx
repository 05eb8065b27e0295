import {
  APP_PACKAGE_EXTENSIONS,
  appPackageUpload,
  type AppPackage,
  type AppPackageKind,
} from '@vigil/contract/browser';
import { App, Button, Progress, Space, Typography, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upload } from '../../shared/api/upload.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { MAX_PACKAGE_TEXT, packageProblem, sizeText } from './release-model.ts';

export interface PackageFieldProps {
  kind: AppPackageKind;
  /** The uploaded package; set by `Form.Item`. */
  value?: AppPackage | null;
  onChange?: (value: AppPackage | null) => void;
  /** Prefix of the test ids of the upload and remove controls. */
  testId: string;
}

/**
 * A package in a form: a picked file is checked as the server checks it (name ending, size),
 * uploaded at once with its progress, and shown by name and size; the form's Save sends its
 * fileId. The server deletes uploads no release takes.
 */
export const PackageField = ({ kind, value, onChange, testId }: PackageFieldProps) => {
  const { t } = useTranslation('app-release');
  const { message } = App.useApp();
  const onError = useApiError();
  const [percent, setPercent] = useState<number | null>(null);
  const ext = APP_PACKAGE_EXTENSIONS[kind];

  const send = async (file: File) => {
    const form = new FormData();
    form.append('packageType', kind);
    form.append('file', file, file.name);
    setPercent(0);
    try {
      const stored = await upload(appPackageUpload, form, (fraction) => setPercent(Math.round(fraction * 100)));
      onChange?.(stored);
    } catch (error) {
      onError(error);
    } finally {
      setPercent(null);
    }
  };

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = packageProblem(file, kind);
    if (problem) void message.error(t(problem, { ext, max: MAX_PACKAGE_TEXT }));
    else void send(file);
    return Upload.LIST_IGNORE;
  };

  const busy = percent !== null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid={testId}>
      {value && (
        <Typography.Text data-testid={`${testId}-file`}>
          {value.fileName} ({sizeText(value.size)})
        </Typography.Text>
      )}
      {busy && <Progress percent={percent} size="small" data-testid={`${testId}-progress`} />}
      <Space wrap>
        <Upload accept={ext} showUploadList={false} maxCount={1} beforeUpload={beforeUpload} disabled={busy}>
          <Button data-testid={`${testId}-upload`} loading={busy}>
            {t(value ? 'upload.replace' : 'upload.choose')}
          </Button>
        </Upload>
        {value && (
          <Button data-testid={`${testId}-remove`} onClick={() => onChange?.(null)} disabled={busy}>
            {t('upload.remove')}
          </Button>
        )}
      </Space>
      <Typography.Text type="secondary">{t('upload.limits', { ext, max: MAX_PACKAGE_TEXT })}</Typography.Text>
    </Space>
  );
};
