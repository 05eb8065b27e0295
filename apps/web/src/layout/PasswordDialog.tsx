import { adminLogin, adminUpdatePassword, Status } from '@vigil/contract/browser';
import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, ApiError, loginRedirectPath } from '../shared/api/client.ts';
import { encryptPassword } from '../shared/api/rsa.ts';
import { sessionStore, useSession } from '../shared/session/session-store.ts';
import { passwordFormProblem, type PasswordFields } from './password-form.ts';

export const PasswordDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const session = useSession();
  const [form] = Form.useForm<PasswordFields>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const userName = session.info?.userName ?? '';

  const submit = async () => {
    const fields = form.getFieldsValue();
    const problem = passwordFormProblem({
      oldPassword: fields.oldPassword ?? '',
      newPassword: fields.newPassword ?? '',
      confirmPassword: fields.confirmPassword ?? '',
    });
    setError(problem ? t(problem) : null);
    if (problem) return;
    setBusy(true);
    const redirect = loginRedirectPath(window.location);
    try {
      await api(adminUpdatePassword, {
        userName,
        oldPassWord: await encryptPassword(fields.oldPassword),
        newPassWord: await encryptPassword(fields.newPassword),
        rsa: true,
      });
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === Status.OLD_PASSWORD_WRONG) setError(t('password.oldWrong'));
      else setError(err instanceof ApiError ? err.message : t('common.unknownError'));
      return;
    }
    // The change ended every session: prove the new password works, then sign in afresh.
    try {
      await api(adminLogin, { userName, passWord: await encryptPassword(fields.newPassword), rsa: true, from: 'PC' });
      void message.success(t('password.success'));
    } catch {
      void message.error(t('password.loginAgain'));
    }
    sessionStore.reset();
    setBusy(false);
    onClose();
    void navigate(redirect);
  };

  return (
    <Modal
      open={open}
      title={t('password.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="password-dialog" autoComplete="off">
        <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
        <Form.Item name="oldPassword" label={t('password.old')}>
          <Input.Password maxLength={16} autoComplete="current-password" data-testid="old-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('password.new')} extra={t('password.rules')}>
          <Input.Password maxLength={16} autoComplete="new-password" data-testid="new-password" />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('password.confirm')}>
          <Input.Password maxLength={16} autoComplete="new-password" data-testid="confirm-password" />
        </Form.Item>
        {error && (
          <div role="alert" className="form-error" data-testid="password-error">
            {error}
          </div>
        )}
      </Form>
    </Modal>
  );
};
