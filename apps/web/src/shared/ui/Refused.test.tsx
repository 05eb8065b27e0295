import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Dropdown, Modal, type ButtonProps } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { RefusableButton, refusableOk, refusedLabel } from './Refused.tsx';

const tooltipTexts = () =>
  [...document.querySelectorAll('.ant-tooltip:not(.ant-tooltip-hidden)')].map((e) => e.textContent);

describe('refused actions', () => {
  it('disables a refused button and shows the reason when the pointer enters its wrapper', async () => {
    const onClick = vi.fn();
    render(
      <RefusableButton refusal="Delete its floors first." onClick={onClick}>
        Delete
      </RefusableButton>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toBeDisabled();
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    // A disabled button reports no hover: the span around it carries the tooltip.
    const holder = button.parentElement as HTMLElement;
    expect(holder).toHaveClass('refused-action');
    fireEvent.mouseEnter(holder);
    await waitFor(() => expect(tooltipTexts()).toContain('Delete its floors first.'));
  });

  it('leaves a button with nothing against it as it is', () => {
    const onClick = vi.fn();
    render(<RefusableButton onClick={onClick}>Delete</RefusableButton>);
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toBeEnabled();
    expect(button.closest('.refused-action')).toBeNull();
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('explains a disabled menu entry on hover', async () => {
    render(
      <Dropdown
        open
        menu={{ items: [{ key: 'delete', disabled: true, label: refusedLabel('Delete', 'Unlink it first.') }] }}
      >
        <button type="button">More</button>
      </Dropdown>,
    );
    const entry = await screen.findByRole('menuitem', { name: 'Delete' });
    expect(entry).toHaveAttribute('aria-disabled', 'true');
    fireEvent.mouseEnter(entry.querySelector('.refused-action') as HTMLElement);
    await waitFor(() => expect(tooltipTexts()).toContain('Unlink it first.'));
  });

  it('disables a dialog’s OK button with its reason, and enables that same button once the reason is gone', async () => {
    const onOk = vi.fn();
    const dialog = (refusal?: string) => (
      <Modal
        open
        title="Initialise"
        okText="Go"
        onOk={onOk}
        {...refusableOk(refusal, { 'data-testid': 'ok' } as ButtonProps)}
      >
        body
      </Modal>
    );
    const { rerender } = render(dialog('Confirm the empty bed first.'));
    const ok = screen.getByTestId('ok');
    expect(ok).toBeDisabled();
    fireEvent.mouseEnter(ok.closest('.refused-action') as HTMLElement);
    await waitFor(() => expect(tooltipTexts()).toContain('Confirm the empty bed first.'));
    rerender(dialog());
    expect(screen.getByTestId('ok')).toBe(ok);
    expect(ok).toBeEnabled();
    expect(ok.closest('.refused-action')).toBeNull();
    fireEvent.click(ok);
    expect(onOk).toHaveBeenCalledOnce();
  });
});
