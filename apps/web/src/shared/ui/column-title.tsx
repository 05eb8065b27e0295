import { QuestionCircleOutlined } from '@ant-design/icons';
import { Space, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

/**
 * A column header with the unit of its figures (issue 29, point 14): "Heart rate (bpm)",
 * "心率（次/分）", so the cells can hold the bare numbers.
 */
export const withUnit = (t: TFunction, name: string, unit: string): string =>
  t('common.withUnit', { name, unit, ns: 'translation' });

/** A column header that explains what its figure means: a help mark whose tooltip says it. */
export const HelpTitle = ({ title, help, testId }: { title: ReactNode; help: string; testId?: string }) => (
  <Space size={4}>
    {title}
    <Tooltip title={help}>
      <QuestionCircleOutlined aria-label={help} data-testid={testId} style={{ cursor: 'help', opacity: 0.6 }} />
    </Tooltip>
  </Space>
);
