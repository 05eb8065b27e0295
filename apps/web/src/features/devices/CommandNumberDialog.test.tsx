import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { CommandNumberDialog } from './CommandNumberDialog.tsx';

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

const dialog = (onSave: (value: number) => Promise<unknown>) => (
  <CommandNumberDialog
    testId="interval-form"
    title="Reporting interval"
    label="Interval"
    rule="1 to 254 seconds"
    min={1}
    max={254}
    initial={null}
    onSave={onSave}
    onClose={() => undefined}
  />
);

describe('CommandNumberDialog', () => {
  it('queues the number with Enter in its one field, once while the first is sent', async () => {
    let settle: (value: unknown) => void = () => undefined;
    const onSave = vi.fn(() => new Promise((resolve) => (settle = resolve)));
    render(inTestShell(i18n, dialog(onSave)));
    const input = screen.getByPlaceholderText('1–254');
    fireEvent.change(input, { target: { value: '30' } });
    fireEvent.submit(screen.getByTestId('interval-form'));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(30));
    fireEvent.submit(screen.getByTestId('interval-form'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(onSave).toHaveBeenCalledTimes(1);
    settle(null);
  });

  it('refuses a number out of range with its rule and sends nothing', async () => {
    const onSave = vi.fn(() => Promise.resolve(null));
    render(inTestShell(i18n, dialog(onSave)));
    fireEvent.change(screen.getByPlaceholderText('1–254'), { target: { value: '999' } });
    fireEvent.submit(screen.getByTestId('interval-form'));
    expect(await screen.findByText('1 to 254 seconds')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });
});
