import { App, Button, Tag, Typography } from 'antd';
import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RefusableButton } from './Refused.tsx';

/** Enabled/disabled tag of a list row. */
export const EnabledTag = ({ enabled }: { enabled: boolean }) => {
  const { t } = useTranslation();
  return <Tag color={enabled ? 'green' : 'default'}>{t(enabled ? 'common.enabled' : 'common.disabled')}</Tag>;
};

/** Shows a generated password once, copyable, under a translated title taking {{password}}. */
export const useShowInitialPassword = (titleKey: string) => {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (password: string | null | undefined) => {
      if (!password) return;
      modal.info({
        title: t(titleKey, { password }),
        content: <Typography.Text copyable>{password}</Typography.Text>,
      });
    },
    [modal, t, titleKey],
  );
};

/** A row action that asks first; `onOk` may return a promise to keep the dialog busy. */
export const ConfirmLink = (props: {
  label: ReactNode;
  title: ReactNode;
  content: ReactNode;
  onOk: () => unknown;
  danger?: boolean;
  /** Why the server would refuse it: the link is disabled with this as its tooltip. */
  refusal?: ReactNode;
}) => {
  const { modal } = App.useApp();
  return (
    <RefusableButton
      type="link"
      size="small"
      danger={props.danger}
      refusal={props.refusal}
      onClick={() =>
        modal.confirm({
          title: props.title,
          content: props.content,
          // A refusal is shown by the caller; antd would re-throw a rejected onOk as an unhandled rejection.
          onOk: () => Promise.resolve(props.onOk()).catch(() => undefined),
          okButtonProps: { danger: props.danger },
        })
      }
    >
      {props.label}
    </RefusableButton>
  );
};

/** Enable at once, disable after a confirmation naming what stops working. */
export const EnableToggle = (props: {
  enabled: boolean;
  disableConfirm: ReactNode;
  onChange: (enable: boolean) => unknown;
}) => {
  const { t } = useTranslation();
  if (props.enabled) {
    return (
      <ConfirmLink
        label={t('common.disable')}
        title={t('common.confirm')}
        content={props.disableConfirm}
        onOk={() => props.onChange(false)}
      />
    );
  }
  return (
    <Button type="link" size="small" onClick={() => void Promise.resolve(props.onChange(true)).catch(() => undefined)}>
      {t('common.enable')}
    </Button>
  );
};
