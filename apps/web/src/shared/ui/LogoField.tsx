import { CONSTANTS, uploadLogo } from '@vigil/contract/browser';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Image, Space, Typography, Upload, type UploadProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { useApiError } from './useApiError.ts';

/** Natural width and height of an image file, read through an object URL. */
const imageSize = (file: Blob): Promise<{ width: number; height: number }> =>
  new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new window.Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('image'));
    };
    img.src = url;
  });

/** The first rule of the server's logo check a file breaks, as a message key; null when it passes. */
const logoProblem = async (file: File): Promise<string | null> => {
  const { logo } = CONSTANTS;
  if (file.type !== logo.type) return 'platSet.uploadNotPng';
  if (file.size >= logo.maxBytes) return 'platSet.uploadTooLarge';
  try {
    const { width, height } = await imageSize(file);
    return width === logo.widthPx && height === logo.heightPx ? null : 'platSet.uploadSize';
  } catch {
    return 'platSet.uploadNotPng';
  }
};

export interface LogoFieldProps {
  /** The logo's address (`/system/file?id=…`), null for none. Set by `Form.Item`. */
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** Prefix of the test ids of the preview, upload and remove controls. */
  testId?: string;
}

/**
 * A logo in a form: a picked file is checked as the server checks it, uploaded at once and
 * previewed; the form's Save stores the address. The server deletes uploads nothing uses.
 */
export const LogoField = ({ value, onChange, testId = 'logo' }: LogoFieldProps) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const onError = useApiError();
  const upload = useMutation({
    mutationFn: (file: File) => {
      const data = new FormData();
      data.append('file', file);
      return api(uploadLogo, data);
    },
    onSuccess: (result) => onChange?.(result.url),
    onError,
  });

  const beforeUpload: UploadProps['beforeUpload'] = async (file) => {
    const problem = await logoProblem(file);
    if (problem) void message.error(t(problem));
    else upload.mutate(file);
    return Upload.LIST_IGNORE;
  };

  return (
    <Space orientation="vertical" data-testid={testId}>
      {value ? (
        <Image src={value} width={100} height={100} alt={t('platSet.logo')} data-testid={`${testId}-preview`} />
      ) : (
        <Typography.Text type="secondary" data-testid={`${testId}-none`}>
          {t('platSet.noLogo')}
        </Typography.Text>
      )}
      <Typography.Text type="secondary">{t('platSet.logoRule')}</Typography.Text>
      <Space wrap>
        <Upload accept="image/png" showUploadList={false} maxCount={1} beforeUpload={beforeUpload}>
          <Button data-testid={`${testId}-upload`} loading={upload.isPending}>
            {t('platSet.upload')}
          </Button>
        </Upload>
        {value && (
          <Button data-testid={`${testId}-remove`} onClick={() => onChange?.(null)} disabled={upload.isPending}>
            {t('platSet.removeLogo')}
          </Button>
        )}
      </Space>
    </Space>
  );
};
