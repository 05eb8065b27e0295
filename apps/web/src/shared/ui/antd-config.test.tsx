import { render, screen } from '@testing-library/react';
import { App as AntApp, Button, ConfigProvider, Modal } from 'antd';
import { describe, expect, it } from 'vitest';
import { loadAntdLocale } from '../i18n/antd-locale.ts';
import { CONSOLE_ANTD_CONFIG } from './antd-config.ts';

const buttonText = (name: RegExp) => screen.getByRole('button', { name }).textContent;

describe("the console's Ant Design settings", () => {
  it('antd on its own spreads a two-character CJK button (the behaviour being switched off)', () => {
    render(<Button>確認</Button>);
    expect(buttonText(/確\s?認/)).toBe('確 認');
  });

  it.each(['確認', '确定', '保存'])('keeps the button "%s" as written', async (label) => {
    const locale = await loadAntdLocale('ja');
    render(
      <ConfigProvider {...CONSOLE_ANTD_CONFIG} locale={locale}>
        <AntApp>
          <Button>{label}</Button>
        </AntApp>
      </ConfigProvider>,
    );
    expect(buttonText(new RegExp(`^${[...label].join('\\s?')}$`))).toBe(label);
  });

  it('also reaches the footer buttons of a dialog', async () => {
    const locale = await loadAntdLocale('zh-CN');
    render(
      <ConfigProvider {...CONSOLE_ANTD_CONFIG} locale={locale}>
        <Modal open title="x" okText="确认" cancelText="取消" />
      </ConfigProvider>,
    );
    expect(buttonText(/^确\s?认$/)).toBe('确认');
    expect(buttonText(/^取\s?消$/)).toBe('取消');
  });
});
