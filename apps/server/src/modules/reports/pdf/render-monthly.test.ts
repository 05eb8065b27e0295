import { describe, expect, it } from 'vitest';
import { monthFixture, residentFixture } from './fixtures.ts';
import { readPdf, valueAfter } from './pdf-text.ts';
import { renderMonthReportPdf } from './render-monthly.ts';

const weekdayDate = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const tableDate = (night: string): string => weekdayDate.format(new Date(`${night}T12:00:00Z`));

describe('renderMonthReportPdf', () => {
  it('lists every night of an English month, its insufficient nights with their reasons, over two pages', async () => {
    const report = monthFixture({ resident: residentFixture('Margaret Ellis') });
    expect(report.nights).toHaveLength(30);
    const content = await readPdf(await renderMonthReportPdf({ report, language: 'en-US', timeZone: 'Europe/Prague' }));

    expect(content.pages[0]).toContain('Margaret Ellis');
    expect(content.pages[0]).toContain('March 2026');
    expect(content.pages[0]).toContain('Nights with a report: 30 · scored: 27 · could not be scored: 3');
    // Every night is a row of the table (date, then its score or its reason); the night without a report is not.
    const rows = content.pages.join('\n');
    for (const night of report.nights) {
      const date = tableDate(night.night);
      expect(rows).toContain(date);
      const page = content.placed.find((items) => items.some((item) => item.text === date)) ?? [];
      const row = page.find((item) => item.text === date);
      expect(row).toBeDefined();
      const cells = page
        .filter((item) => row && Math.abs(item.y - row.y) < 2 && item.x > row.x && item.text.trim() !== '')
        .sort((a, b) => a.x - b.x)
        .map((item) => item.text.trim());
      if (night.score === null) expect(cells.slice(0, 2)).toEqual(['—', expect.stringMatching(/this night$/)]);
      else expect(cells[0]).toBe(String(night.score));
    }
    expect(rows).not.toContain(tableDate('2026-03-17'));
    expect(content.flat).toContain('No data from the sleep monitor this night');
    expect(content.flat).toContain('The resident was not in bed this night');
    expect(content.flat).toContain('Too little valid signal to score this night');

    expect(content.pages.length).toBeGreaterThanOrEqual(2);
    const last = content.pages.length;
    expect(content.pages[last - 1]).toContain('The nights');
    expect(content.pages[last - 1]).toContain(`Page ${last} of ${last}`);
    for (const page of content.pages) expect(page).toContain('A screening aid, not a medical diagnosis');
  });

  it("prints the month's averages, risk grades and most frequent reasons", async () => {
    const report = monthFixture();
    const content = await readPdf(await renderMonthReportPdf({ report, language: 'en-US', timeZone: 'UTC' }));
    expect(valueAfter(content, 'Sleep score', 90)).toBe(String(Math.round(report.averages.score ?? 0)));
    expect(valueAfter(content, 'Sleep efficiency', 90)).toBe(`${Math.round((report.averages.efficiency ?? 0) * 100)}%`);
    expect(content.flat).toContain(`Low ${report.riskNights.low}`);
    expect(content.flat).toContain(`Medium ${report.riskNights.medium}`);
    expect(content.flat).toContain(`High ${report.riskNights.high}`);
    const top = report.riskReasons[0];
    expect(top).toBeDefined();
    const labels = {
      poorSleep: 'Poor sleep',
      moderateApnea: 'Moderate apnea',
      severeApnea: 'Severe apnea',
      afPossible: 'AF possible',
    };
    const label = labels[top?.reason as keyof typeof labels];
    expect(valueAfter(content, 'Most frequent risk reasons', 40)).toBe(label);
    expect(content.flat).toContain('Night by night');
    expect(content.flat).toContain('AHI (events/h)');
  });

  it('prints a Chinese month with the CJK name and Chinese labels', async () => {
    const report = monthFixture({ resident: residentFixture('张三') });
    const pdf = await renderMonthReportPdf({ report, language: 'zh-CN', timeZone: 'Asia/Shanghai' });
    const content = await readPdf(pdf);
    expect(content.items[0]).toContain('张三');
    expect(content.pages[0]).toContain('2026年3月');
    expect(content.compact).toContain('有报告的夜晚：30·已评分：27·无法评分：3');
    expect(content.compact).toContain('本夜未收到睡眠监测器的数据');
    expect(content.flat).toContain('逐夜明细');
    expect(content.fonts.some((f) => /^[A-Z]{6}\+NotoSansSC-Regular$/.test(f))).toBe(true);
    expect(content.fontFiles).toBe(content.fonts.length);
  });

  it('says why a night has no figures when its report was not made', async () => {
    const base = monthFixture();
    const nights = base.nights.map((n) => (n.night === '2026-03-30' ? { ...n, state: 'failed' as const } : n));
    const content = await readPdf(
      await renderMonthReportPdf({ report: { ...base, nights }, language: 'fr', timeZone: 'Europe/Paris' }),
    );
    expect(content.flat).toContain('Le rapport n’a pas pu être établi');
  });

  it('prints a month without nights as such, on one page', async () => {
    const empty = monthFixture({ withoutNights: true });
    const content = await readPdf(
      await renderMonthReportPdf({ report: empty, language: 'ko', timeZone: 'Asia/Seoul' }),
    );
    expect(content.pages).toHaveLength(1);
    expect(content.compact).toContain('이번달에는보고서가있는밤이없습니다.');
  });
});
