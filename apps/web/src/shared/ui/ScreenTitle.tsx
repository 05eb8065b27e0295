import { Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A screen's heading: the name its menu entry, tab and breadcrumb show (the shell's
 * `menu.<route>`), so a screen is called one thing everywhere (issue 29, point 14).
 */
export const ScreenTitle = ({ route, style }: { route: string; style?: CSSProperties }) => {
  const { t } = useTranslation();
  return (
    <Typography.Title level={4} style={style} data-testid="screen-title">
      {t(`menu.${route}`)}
    </Typography.Title>
  );
};
