import { act, render, screen } from '@testing-library/react';
import { ConfigProvider, theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleAntdConfig } from './antd-config.ts';
import { useReducedMotion } from './reduced-motion.ts';

/** A matchMedia whose reduced-motion answer the test sets, telling listeners as a browser does. */
const fakeMedia = (initially: boolean) => {
  const listeners = new Set<() => void>();
  const list = {
    matches: initially,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', (query: string) => {
    expect(query).toBe('(prefers-reduced-motion: reduce)');
    return list;
  });
  return {
    set(reduce: boolean) {
      list.matches = reduce;
      for (const listener of listeners) listener();
    },
    listeners,
  };
};

const Motion = () => {
  const { token } = theme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
};

/** As App.tsx: the console's antd settings follow the system's reduced-motion setting. */
const Console = () => {
  const reduced = useReducedMotion();
  return (
    <ConfigProvider {...consoleAntdConfig({ motion: !reduced })}>
      <Motion />
    </ConfigProvider>
  );
};

describe('reduced motion', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns antd motion off while the system asks for less motion, and on again live', () => {
    const media = fakeMedia(true);
    const { unmount } = render(<Console />);
    expect(screen.getByTestId('motion').textContent).toBe('false');
    act(() => media.set(false));
    expect(screen.getByTestId('motion').textContent).toBe('true');
    act(() => media.set(true));
    expect(screen.getByTestId('motion').textContent).toBe('false');
    unmount();
    expect(media.listeners.size).toBe(0);
  });

  it('keeps motion where the browser has no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    render(<Console />);
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });
});
