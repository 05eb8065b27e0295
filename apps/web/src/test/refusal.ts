import { fireEvent, waitFor } from '@testing-library/react';

/** The tooltips showing now. */
export const shownTooltips = (): (string | null)[] =>
  [...document.querySelectorAll<HTMLElement>('.ant-tooltip:not(.ant-tooltip-hidden)')].map((e) => e.textContent);

/**
 * Hovers a disabled action (a button, a dialog's OK button or a menu entry) and waits for the
 * tooltip giving its reason: a disabled button reports no hover, the wrapper a refusal puts
 * around it does.
 */
export const expectRefusal = async (action: HTMLElement, reason: string): Promise<void> => {
  const holder = action.closest<HTMLElement>('.refused-action') ?? action.querySelector<HTMLElement>('.refused-action');
  if (!holder) throw new Error(`the disabled ${action.textContent ?? 'action'} gives no reason`);
  fireEvent.mouseEnter(holder);
  await waitFor(() => {
    const shown = shownTooltips();
    if (!shown.includes(reason)) throw new Error(`no tooltip “${reason}” in ${JSON.stringify(shown)}`);
  });
  fireEvent.mouseLeave(holder);
};
