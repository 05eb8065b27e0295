import { Button, Tooltip, type ButtonProps, type ModalProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * Actions the server would refuse (a place that still holds others, an occupied bed …) are
 * offered disabled, with the refusal as their tooltip; the server still checks.
 */

/** A button that, while `refusal` is set, is disabled and explains why on hover. */
export const RefusableButton = ({ refusal, ...button }: ButtonProps & { refusal?: ReactNode }) => {
  if (!refusal) return <Button {...button} />;
  return (
    <Tooltip title={refusal}>
      {/* A disabled button reports no hover; the span around it does. */}
      <span className="refused-action" style={{ display: 'inline-block', cursor: 'not-allowed' }}>
        <Button {...button} disabled style={{ ...button.style, pointerEvents: 'none' }} />
      </span>
    </Tooltip>
  );
};

/**
 * A dialog's OK button that, while `refusal` is set, is disabled and explains why on hover: spread
 * the result into the Modal (it sets `okButtonProps` and `footer`). The footer keeps one shape
 * either way, so the button stays the same element when the refusal goes.
 */
export const refusableOk = (
  refusal: ReactNode | undefined,
  okButtonProps: ModalProps['okButtonProps'] = {},
): Pick<ModalProps, 'okButtonProps' | 'footer'> => ({
  okButtonProps: refusal
    ? { ...okButtonProps, disabled: true, style: { ...okButtonProps.style, pointerEvents: 'none' } }
    : okButtonProps,
  footer: (_, { OkBtn, CancelBtn }) => (
    <>
      <CancelBtn />
      <Tooltip title={refusal}>
        <span
          className={refusal ? 'refused-action' : undefined}
          style={{ display: 'inline-block', marginInlineStart: 8, cursor: refusal ? 'not-allowed' : undefined }}
        >
          <OkBtn />
        </span>
      </Tooltip>
    </>
  ),
});

/** The label of a disabled menu entry, explaining on hover why it is disabled. */
export const refusedLabel = (label: ReactNode, refusal: ReactNode) => (
  <Tooltip title={refusal} placement="right">
    <span className="refused-action" style={{ display: 'block' }}>
      {label}
    </span>
  </Tooltip>
);
