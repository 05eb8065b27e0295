import { act, fireEvent, render, screen } from '@testing-library/react';
import i18next, { type i18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import enUS from '../shared/i18n/locales/en-US.json';
import { useSecretClicks, VersionLabel } from './VersionLabel.tsx';

let instance: i18n;
beforeAll(async () => {
  instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: 'en-US',
    fallbackLng: 'en-US',
    resources: { 'en-US': { translation: enUS } },
    interpolation: { escapeValue: false },
  });
});

const renderLabel = () =>
  render(
    <I18nextProvider i18n={instance}>
      <VersionLabel />
    </I18nextProvider>,
  );
const label = () => screen.getByTestId('version-label');
const click = (n: number) => {
  for (let i = 0; i < n; i++) fireEvent.click(label());
};

describe('VersionLabel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the short version first', () => {
    renderLabel();
    expect(label().textContent).toBe('Version dev');
  });

  it('ten quick clicks show the detailed version, ten more hide it', () => {
    renderLabel();
    click(10);
    expect(label().textContent).toBe('Version dev · build dev');
    click(10);
    expect(label().textContent).toBe('Version dev');
  });

  it('nine clicks do not', () => {
    renderLabel();
    click(9);
    expect(label().textContent).toBe('Version dev');
  });

  it('ten clicks spread over more than eight seconds do not', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-01-01T00:00:00Z'));
    renderLabel();
    for (let i = 0; i < 10; i++) {
      fireEvent.click(label());
      vi.setSystemTime(Date.now() + 900); // 10 clicks span 8.1 s
    }
    expect(label().textContent).toBe('Version dev');
  });
});

/** Drives useSecretClicks with an injected clock. */
const Probe = ({ now, onTrigger }: { now: () => number; onTrigger: () => void }) => {
  const onClick = useSecretClicks(onTrigger, now);
  return (
    <button type="button" onClick={onClick}>
      probe
    </button>
  );
};

describe('useSecretClicks', () => {
  const setup = () => {
    let time = 0;
    const onTrigger = vi.fn();
    render(<Probe now={() => time} onTrigger={onTrigger} />);
    const button = screen.getByRole('button');
    return {
      onTrigger,
      clickAt: (t: number) => {
        time = t;
        act(() => {
          fireEvent.click(button);
        });
      },
    };
  };

  it('ten clicks within eight seconds trigger once', () => {
    const { onTrigger, clickAt } = setup();
    for (let i = 0; i < 10; i++) clickAt(i * 700); // last at 6.3 s
    expect(onTrigger).toHaveBeenCalledTimes(1);
  });

  it('a click exactly eight seconds after the first no longer counts the first', () => {
    const { onTrigger, clickAt } = setup();
    for (let i = 0; i < 9; i++) clickAt(i * 100);
    clickAt(8000);
    expect(onTrigger).not.toHaveBeenCalled();
    clickAt(8001);
    expect(onTrigger).toHaveBeenCalledTimes(1);
  });

  it('clicks spread over more than eight seconds never trigger', () => {
    const { onTrigger, clickAt } = setup();
    for (let i = 0; i < 30; i++) clickAt(i * 1000);
    expect(onTrigger).not.toHaveBeenCalled();
  });

  it('the counter restarts after a trigger', () => {
    const { onTrigger, clickAt } = setup();
    for (let i = 0; i < 19; i++) clickAt(i);
    expect(onTrigger).toHaveBeenCalledTimes(1);
    clickAt(19);
    expect(onTrigger).toHaveBeenCalledTimes(2);
  });
});
