import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import zhCN from '../shared/i18n/locales/zh-CN.json';
import { sessionStore } from '../shared/session/session-store.ts';
import { sessionInfo } from '../test/session-info.ts';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { UI_LANGUAGES } from '../shared/i18n/index.ts';
import { LanguageDialog } from './LanguageDialog.tsx';

// The real switch stores the language and reloads the page, which jsdom cannot do: the dialog takes this one.
const switched = vi.fn();

const radios = () => within(screen.getByTestId('language-dialog')).getAllByRole('radio');
const offered = () => radios().map((r) => r.getAttribute('value'));

describe('LanguageDialog (issue 8, point 9)', () => {
  let i18n: I18n;
  afterEach(() => sessionStore.reset());
  beforeEach(async () => {
    switched.mockClear();
    i18n = await englishI18n();
  });

  it('in English without the abroad flag lists Chinese and English, English checked and marked current', () => {
    render(inTestShell(i18n, <LanguageDialog open onClose={() => undefined} onSwitch={switched} />));
    expect(offered()).toEqual(['zh-CN', 'en-US']);
    const english = screen.getByTestId('language-en-US');
    expect(english).toBeChecked();
    expect(english).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('language-zh-CN')).not.toBeChecked();
    expect(screen.getByTestId('language-zh-CN')).not.toHaveAttribute('aria-current');
    // The visible mark, in the interface language, belongs to the English entry and is part of its name.
    expect(screen.getAllByTestId('language-current')).toHaveLength(1);
    expect(screen.getByRole('radio', { name: /English.*\(current\)/ })).toBe(english);
  });

  it('switches to the language picked', () => {
    render(inTestShell(i18n, <LanguageDialog open onClose={() => undefined} onSwitch={switched} />));
    fireEvent.click(screen.getByTestId('language-zh-CN'));
    expect(switched).toHaveBeenCalledWith('zh-CN');
  });

  it('in Chinese without the abroad flag still offers English to switch back', async () => {
    i18n.addResourceBundle('zh-CN', 'translation', zhCN);
    await i18n.changeLanguage('zh-CN');
    render(inTestShell(i18n, <LanguageDialog open onClose={() => undefined} onSwitch={switched} />));
    expect(offered()).toEqual(['zh-CN', 'en-US']);
    expect(screen.getByTestId('language-zh-CN')).toBeChecked();
    expect(screen.getByTestId('language-current')).toHaveTextContent(zhCN['language.current']);
    fireEvent.click(screen.getByTestId('language-en-US'));
    expect(switched).toHaveBeenCalledWith('en-US');
  });

  it('in a language chosen on the login page lists it too, marked current', async () => {
    await i18n.changeLanguage('de');
    render(inTestShell(i18n, <LanguageDialog open onClose={() => undefined} onSwitch={switched} />));
    expect(offered()).toEqual(['zh-CN', 'en-US', 'de']);
    expect(screen.getByTestId('language-de')).toBeChecked();
    expect(screen.getByTestId('language-de')).toHaveAttribute('aria-current', 'true');
  });

  it('in the overseas edition lists all eight languages, the current one marked', async () => {
    sessionStore.setInfo(sessionInfo({ abroad: true }));
    await i18n.changeLanguage('ja');
    render(inTestShell(i18n, <LanguageDialog open onClose={() => undefined} onSwitch={switched} />));
    expect(offered()).toEqual([...UI_LANGUAGES]);
    expect(radios().filter((r) => (r as HTMLInputElement).checked)).toEqual([screen.getByTestId('language-ja')]);
    expect(screen.getByTestId('language-ja')).toHaveAttribute('aria-current', 'true');
  });
});
