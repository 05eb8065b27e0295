import { adminLogin, adminUpdatePassword } from '@vigil/contract/browser';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, ApiError, loginRedirectPath } from '../shared/api/client.ts';
import { encryptPassword } from '../shared/api/rsa.ts';
import { sessionStore, useSession } from '../shared/session/session-store.ts';
import { useFormSubmit } from '../shared/ui/useFormSubmit.ts';
import { passwordFormIssue, type PasswordFields } from './password-form.ts';

/**
 * Changes the signed-in account's password. `forced`: the account still has a generated password,
 * which the server refuses every other call for, so the dialog cannot be closed.
 */
export const PasswordDialog = ({
  open,
  onClose,
  forced = false,
}: {
  open: boolean;
  onClose: () => void;
  forced?: boolean;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const session = useSession();
  const [form] = Form.useForm<PasswordFields>();
  const userName = session.info?.userName ?? '';

  /** False when a check failed (shown on its field) and nothing was sent. */
  const change = async (fields: PasswordFields): Promise<boolean> => {
    const issue = passwordFormIssue({
      oldPassword: fields.oldPassword ?? '',
      newPassword: fields.newPassword ?? '',
      confirmPassword: fields.confirmPassword ?? '',
    });
    if (issue) {
      form.setFields([{ name: issue.field, errors: [t(issue.key)] }]);
      return false;
    }
    const redirect = loginRedirectPath(window.location);
    // A refusal lands on the field it names (a wrong old password on the old one).
    await api(adminUpdatePassword, {
      userName,
      oldPassWord: await encryptPassword(fields.oldPassword),
      newPassWord: await encryptPassword(fields.newPassword),
      rsa: true,
    });
    // The change ended every session: prove the new password works, then sign in afresh.
    try {
      await api(adminLogin, { userName, passWord: await encryptPassword(fields.newPassword), rsa: true, from: 'PC' });
      void message.success(t('password.success'));
    } catch {
      void message.error(t('password.loginAgain'));
    }
    sessionStore.reset();
    onClose();
    void navigate(redirect);
    return true;
  };
  const submit = useFormSubmit(form, change, {
    onError: (error) => void message.error(error instanceof ApiError ? error.message : t('common.unknownError')),
  });

  return (
    <Modal
      open={open}
      title={t('password.title')}
      {...submit.modalProps(onClose)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      destroyOnHidden
      {...(forced
        ? { closable: false, maskClosable: false, keyboard: false, cancelButtonProps: { style: { display: 'none' } } }
        : {})}
    >
      {forced && (
        <Alert
          type="warning"
          showIcon
          title={t('password.mustChange')}
          style={{ marginBottom: 16 }}
          data-testid="password-forced"
        />
      )}
      <Form {...submit.formProps} layout="vertical" data-testid="password-dialog" autoComplete="off">
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
      </Form>
    </Modal>
  );
};
