import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { dealResultsFor, type AlarmRecord } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { AlarmCard } from './AlarmCard.tsx';
import { LocationProbe } from './test-fixtures.tsx';
import { alarmRecord } from '../../test/alarm-record.ts';

const NOW = new Date('2026-11-29T01:43:00Z');

const alarm = (over: Partial<AlarmRecord>): AlarmRecord =>
  alarmRecord(1, {
    type: 'sleep',
    deviceId: 'SLP-1',
    deviceType: 49,
    alertType: 'HEART_ABNORMAL',
    bunk: 'A',
    room: '101',
    userName: 'Margaret Ellis',
    userId: 9,
    timeStamp: NOW.getTime() / 1000 - 125,
    lastTime: NOW.getTime() / 1000 - 125,
    duration: 120,
    text: '101 A: Margaret Ellis has an abnormal heart rate',
    measure: { quantity: 'heartRate', value: 58, limit: 75, side: 'below', seconds: 120 },
    measureText: 'heart rate 58 /min · below the limit 75 · for 2 min',
    resultOptions: [...dealResultsFor(over.alertType ?? 'HEART_ABNORMAL')],
    ...over,
  });

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
afterEach(() => vi.useRealTimers());

const show = (record: AlarmRecord) =>
  within(
    render(
      inTestShell(
        i18n,
        <>
          <AlarmCard alarm={record} onHandle={() => undefined} />
          <LocationProbe />
        </>,
        '/realMonitor/index',
      ),
    ).getByTestId(`alarm-card-${record.id}`),
  );

describe('an alarm card says what and how much (issue 29, point 4)', () => {
  it('shows the figure, who and where apart, the time and how long ago (ticking), and the live chart', () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const card = show(alarm({}));
    expect(card.getByTestId('alarm-measure')).toHaveTextContent('heart rate 58 /min · below the limit 75 · for 2 min');
    expect(card.getByTestId('alarm-who')).toHaveTextContent(/^Margaret Ellis · 101 A$/);
    expect(card.getByText('East Wing / Floor 1')).toBeInTheDocument();
    expect(card.getByTestId('alarm-elapsed')).toHaveTextContent('2 min 5 s ago');
    act(() => vi.advanceTimersByTime(3000));
    expect(card.getByTestId('alarm-elapsed')).toHaveTextContent('2 min 8 s ago');
    fireEvent.click(card.getByTestId('alarm-live-chart'));
    expect(screen.getByTestId('location')).toHaveTextContent('/realMonitor/resident?userId=9');
  });

  it('an event alarm shows nothing extra: no figure, no empty separator', () => {
    const card = show(
      alarm({
        id: 2,
        type: 'call',
        alertType: 'SOS',
        alertLevel: 1,
        text: '101 A: Margaret Ellis pressed the emergency button',
        measure: null,
        measureText: null,
      }),
    );
    expect(card.queryByTestId('alarm-measure')).toBeNull();
    expect(card.getByTestId('alarm-who')).toHaveTextContent(/^Margaret Ellis · 101 A$/);
    // No separator left with nothing after it, and none doubled.
    expect(screen.getByTestId('alarm-card-2').textContent).not.toMatch(/·\s*(·|$)/);
  });

  it('names only what it knows: a device alarm with no resident or bed has no “who” line', () => {
    const card = show(
      alarm({ id: 3, alertType: 'CONNECTION', type: 'device', userName: null, userId: null, room: null, bunk: null }),
    );
    expect(card.queryByTestId('alarm-who')).toBeNull();
    expect(card.queryByTestId('alarm-live-chart')).toBeNull();
  });

  it('a level 1 card stands out: a red frame, a larger handle button', () => {
    const red = show(alarm({ id: 4, alertLevel: 1 }));
    const level1 = screen.getByTestId('alarm-card-4');
    expect(level1).toHaveClass('alarm-card-level1');
    expect(level1.style.border).toContain('2px solid');
    expect(red.getByRole('button', { name: 'Handle' })).not.toHaveClass('ant-btn-sm');
    const orange = show(alarm({ id: 5, alertLevel: 2 }));
    expect(screen.getByTestId('alarm-card-5').style.border).toBe('');
    expect(orange.getByRole('button', { name: 'Handle' })).toHaveClass('ant-btn-sm');
  });
});
