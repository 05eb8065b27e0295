import { fireEvent, render, screen } from '@testing-library/react';
import { ConfigProvider, Form, Input } from 'antd';
import { describe, expect, it } from 'vitest';
import { loadAntdLocale } from './antd-locale.ts';
import { UI_LANGUAGES } from './index.ts';

const REGEX = '^[A-Za-z0-9-]{1,32}$';

describe("Ant Design's pattern message", () => {
  it.each(UI_LANGUAGES)('never quotes the pattern in %s', async (language) => {
    const locale = await loadAntdLocale(language);
    const mismatch = locale.Form?.defaultValidateMessages?.pattern?.mismatch;
    expect(mismatch).toBeTruthy();
    expect(mismatch).not.toContain('${pattern}');
    // Every other message of the language is kept.
    expect(locale.Form?.defaultValidateMessages?.required).toBeTruthy();
  });

  it('shows a format message without the regular expression for a rule that has no message', async () => {
    const locale = await loadAntdLocale('zh-CN');
    render(
      <ConfigProvider locale={locale}>
        <Form data-testid="form">
          <Form.Item name="number" label="编号" rules={[{ pattern: new RegExp(REGEX) }]}>
            <Input data-testid="number" />
          </Form.Item>
        </Form>
      </ConfigProvider>,
    );
    fireEvent.change(screen.getByTestId('number'), { target: { value: 'a b' } });
    const error = await screen.findByText('编号格式不正确');
    expect(error.textContent).not.toContain(REGEX);
    expect(document.body.textContent).not.toContain('{1,32}');
  });
});
