import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { expectRefusal } from '../test/refusal.ts';
import { tagsStore } from './tags-store.ts';
import { TagsView } from './TagsView.tsx';

describe('TagsView context menu', () => {
  let i18n: I18n;
  beforeAll(async () => {
    i18n = await englishI18n();
  });
  afterEach(() => tagsStore.clear());

  it('offers Close disabled on the start page’s tab, saying why (issue 29, point 14)', async () => {
    tagsStore.visit({ path: '/realMonitor/index', name: 'RealTime', affix: true });
    tagsStore.visit({ path: '/alarm-log/alarmIndex', name: 'alarm', affix: false });
    render(inTestShell(i18n, <TagsView />, '/alarm-log/alarmIndex'));
    fireEvent.contextMenu(screen.getByTestId('tag-/realMonitor/index'));
    const close = await screen.findByRole('menuitem', { name: 'Close' });
    expect(close).toHaveAttribute('aria-disabled', 'true');
    await expectRefusal(close, 'The start page’s tab stays open.');
  });
});
