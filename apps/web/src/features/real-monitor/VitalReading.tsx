import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { rateText } from './live-model.ts';

/** One live reading: a label, the value (a dash when not measured) and its unit. */
export const VitalReading = (props: {
  label: string;
  value: number | null;
  unit: string;
  icon: ReactNode;
  testId: string;
}) => (
  <div style={{ minWidth: 0 }}>
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {props.icon} {props.label}
    </Typography.Text>
    <div>
      <span data-testid={props.testId} style={{ fontSize: 22, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {rateText(props.value)}
      </span>{' '}
      {props.value ? <Typography.Text type="secondary">{props.unit}</Typography.Text> : null}
    </div>
  </div>
);
