import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { dirtyForms, installUnloadGuard } from './dirty-forms.ts';

/**
 * Asks before leaving a form with unsaved changes: in-app navigation (menu, tags, links) through the
 * router's blocker, reload and tab close through the browser's own question. Mounted once by the layout.
 */
export const UnsavedChangesGuard = () => {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyForms.any() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  const current = useRef(blocker);
  current.current = blocker;

  useEffect(() => installUnloadGuard(), []);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('unsaved.title'),
      content: t('unsaved.content'),
      okText: t('unsaved.leave'),
      cancelText: t('unsaved.stay'),
      okButtonProps: { danger: true, 'data-testid': 'unsaved-leave' },
      cancelButtonProps: { 'data-testid': 'unsaved-stay' },
      onOk: () => current.current.proceed?.(),
      onCancel: () => current.current.reset?.(),
    });
  }, [blocker.state, modal, t]);

  return null;
};
