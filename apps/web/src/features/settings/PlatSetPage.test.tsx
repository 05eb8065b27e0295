import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// The API client captures fetch when it is created, so the mock must exist before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn(async (url: string) => {
    const data = url.includes('/system/platformName/get')
      ? { platformName: 'Vigil Care Cloud', logoUrl: null }
      : url.includes('/system/upload')
        ? { url: '/system/file?id=1', size: 10 }
        : null;
    return new Response(JSON.stringify({ status: 200, msg: 'ok', data }), { status: 200 });
  });
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

import PlatSetPage from './PlatSetPage.tsx';

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

const wrap = (node: ReactNode) => inTestShell(i18n, node);

describe('PlatSetPage', () => {
  it('shows the current platform name', async () => {
    render(wrap(<PlatSetPage />));
    expect(await screen.findByText('Vigil Care Cloud')).toBeInTheDocument();
    expect(screen.getByText('PNG, 200 × 200 pixels, under 100 KB')).toBeInTheDocument();
  });

  it('refuses a logo that is not a PNG without uploading it', async () => {
    const { container } = render(wrap(<PlatSetPage />));
    await screen.findByText('Vigil Care Cloud');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File(['x'], 'logo.jpg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('The logo must be a PNG image.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/system/upload'))).toBe(false);
  });

  it('refuses a PNG of 100 KB or more', async () => {
    const { container } = render(wrap(<PlatSetPage />));
    await screen.findByText('Vigil Care Cloud');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File([new Uint8Array(100 * 1024)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('The logo must be under 100 KB.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url.includes('/system/upload'))).toBe(false);
  });
});
