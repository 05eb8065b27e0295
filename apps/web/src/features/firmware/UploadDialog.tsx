import { CONSTANTS, firmwareUpload } from '@vigil/contract/browser';
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, Modal, Progress, Select, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api/client.ts';
import { upload } from '../../shared/api/upload.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import {
  FIRMWARE_VERSION_MAX,
  FIRMWARE_VERSION_PATTERN,
  MD5_PATTERN,
  deviceTypeOptions,
  formatSize,
} from './firmware-model.ts';
import { maxLengthRule, requiredRule, requiredTextRule } from '../../shared/ui/form-rules.ts';

interface UploadFields {
  file?: File;
  deviceType?: number;
  version: string;
  md5: string;
  remark?: string;
}

/** The chosen package in a form: its name and size, and a button to choose another. */
const PackageFile = ({ value, onChange }: { value?: File; onChange?: (file: File | undefined) => void }) => {
  const { t, i18n } = useTranslation('firmware');
  return (
    <Space orientation="vertical" size={4}>
      <Upload
        accept=".zip,application/zip"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />} data-testid="firmware-file-choose">
          {t(value ? 'upload.chooseAgain' : 'upload.choose')}
        </Button>
      </Upload>
      {value && (
        <Typography.Text data-testid="firmware-file-chosen">
          {value.name} · {formatSize(t, value.size, i18n.language)}
        </Typography.Text>
      )}
    </Space>
  );
};

type Phase = { kind: 'idle' } | { kind: 'sending'; percent: number } | { kind: 'checking' };

/**
 * Uploads a firmware package: the zip, its device type, version, MD5 (typed from the vendor's
 * release notes: browsers compute no MD5) and a remark. The form checks what it can as the server
 * does; the server's refusal (not a zip, MD5 mismatch, version not higher, too large) is shown as
 * it words it.
 */
export const UploadDialog = ({
  open,
  onClose,
  onUploaded,
}: {
  open: boolean;
  onClose: () => void;
  onUploaded: () => void;
}) => {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const [form] = Form.useForm<UploadFields>();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setPhase({ kind: 'idle' });
    setRefusal(null);
  }, [open, form]);

  const save = async (values: UploadFields) => {
    if (!values.file || values.deviceType === undefined) return false;
    setRefusal(null);
    const data = new FormData();
    data.append('deviceType', String(values.deviceType));
    data.append('version', values.version.trim());
    data.append('md5', values.md5.trim());
    if (values.remark?.trim()) data.append('remark', values.remark.trim());
    data.append('file', values.file, values.file.name);
    setPhase({ kind: 'sending', percent: 0 });
    try {
      await upload(firmwareUpload, data, (fraction) =>
        setPhase(fraction >= 1 ? { kind: 'checking' } : { kind: 'sending', percent: Math.round(fraction * 100) }),
      );
    } finally {
      setPhase({ kind: 'idle' });
    }
    void message.success(t('done.uploaded'));
    onUploaded();
    onClose();
    return true;
  };
  const submit = useFormSubmit(form, save, {
    onError: (error) =>
      setRefusal(error instanceof ApiError && error.httpStatus !== 401 ? error.message : t('common.unknownError')),
  });
  const modal = submit.modalProps(onClose);

  return (
    <Modal
      open={open}
      title={t('upload.title')}
      okText={t('upload.submit')}
      cancelText={t('common.cancel')}
      {...modal}
      cancelButtonProps={{ disabled: submit.pending }}
      closable={!submit.pending}
      mask={{ closable: false }}
      okButtonProps={{ 'data-testid': 'firmware-upload-submit' }}
      forceRender
    >
      <Form<UploadFields> {...submit.formProps} layout="vertical" data-testid="firmware-upload-form">
        <Form.Item name="file" label={t('upload.file')} extra={t('upload.fileHint')} rules={[requiredRule(t)]}>
          <PackageFile />
        </Form.Item>
        <Form.Item name="deviceType" label={t('upload.deviceType')} rules={[requiredRule(t)]}>
          <Select
            data-testid="firmware-upload-type"
            showSearch={{ optionFilterProp: 'label' }}
            options={deviceTypeOptions(t)}
          />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('upload.version')}
          extra={t('upload.versionRule')}
          rules={[
            requiredTextRule(t),
            {
              validator: (_, value: string | undefined) => {
                const text = value?.trim() ?? '';
                return !text || (text.length <= FIRMWARE_VERSION_MAX && FIRMWARE_VERSION_PATTERN.test(text))
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('upload.versionRule')));
              },
            },
          ]}
        >
          <Input maxLength={FIRMWARE_VERSION_MAX} placeholder="2.4.10" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="md5"
          label={t('upload.md5')}
          extra={t('upload.md5Hint')}
          rules={[
            requiredTextRule(t),
            {
              validator: (_, value: string | undefined) => {
                const text = value?.trim() ?? '';
                return !text || MD5_PATTERN.test(text)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('upload.md5Rule')));
              },
            },
          ]}
        >
          <Input maxLength={40} autoComplete="off" spellCheck={false} style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item name="remark" label={t('common.remark')} rules={[maxLengthRule(t, CONSTANTS.remarkMaxLength)]}>
          <Input.TextArea maxLength={CONSTANTS.remarkMaxLength} showCount rows={3} />
        </Form.Item>
      </Form>
      {phase.kind === 'sending' && (
        <Progress
          percent={phase.percent}
          status="active"
          format={(percent) => t('upload.sending', { percent: percent ?? 0 })}
        />
      )}
      {phase.kind === 'checking' && <Progress percent={100} status="active" format={() => t('upload.checking')} />}
      {refusal && (
        <Alert
          type="error"
          showIcon
          title={t('upload.refused')}
          description={refusal}
          data-testid="firmware-upload-refused"
        />
      )}
    </Modal>
  );
};
