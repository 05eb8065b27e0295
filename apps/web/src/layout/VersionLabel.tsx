import { CONSTANTS } from '@vigil/contract/browser';
import { Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Ten clicks within eight seconds toggle the detailed version text. */
export const useSecretClicks = (onTrigger: () => void, now: () => number = Date.now) => {
  const clicks = useRef<number[]>([]);
  return () => {
    const t = now();
    clicks.current = [...clicks.current.filter((c) => t - c < CONSTANTS.versionLabelWindowMs), t];
    if (clicks.current.length >= CONSTANTS.versionLabelClicks) {
      clicks.current = [];
      onTrigger();
    }
  };
};

export const VersionLabel = () => {
  const { t } = useTranslation();
  const [detail, setDetail] = useState(false);
  const onClick = useSecretClicks(() => setDetail((d) => !d));
  const version = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';
  const build = typeof __APP_BUILD__ === 'string' ? __APP_BUILD__ : 'dev';
  return (
    <Typography.Text data-testid="version-label" className="version-label" onClick={onClick}>
      {detail ? t('sidebar.versionDetail', { version, build }) : t('sidebar.version', { version })}
    </Typography.Text>
  );
};
