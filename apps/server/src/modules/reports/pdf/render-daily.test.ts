import type { Language } from '@vigil/contract';
import type { DailyReport, NightFigures } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { insufficientNightFixture, nightFixture, residentFixture } from './fixtures.ts';
import { readPdf, valueAfter } from './pdf-text.ts';
import { renderDailyReportPdf } from './render-daily.ts';

const figuresOf = (report: DailyReport): NightFigures => {
  if (!report.figures) throw new Error('fixture without figures');
  return report.figures;
};
const hoursMinutes = (seconds: number): [number, number] => {
  const minutes = Math.round(seconds / 60);
  return [Math.floor(minutes / 60), minutes % 60];
};

describe('renderDailyReportPdf', () => {
  it('prints a Chinese night: name, date, score, total sleep, AHI and Chinese labels, in embedded subset fonts', async () => {
    const { report, data } = nightFixture({ resident: residentFixture('张三'), timeZone: 'Asia/Shanghai' });
    const figures = figuresOf(report);
    const pdf = await renderDailyReportPdf({ report, data, language: 'zh-CN', timeZone: 'Asia/Shanghai' });
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const content = await readPdf(pdf);

    expect(content.pages[0]).toContain('张三');
    expect(content.pages[0]).toContain('睡眠日期：2026年3月2日');
    expect(valueAfter(content, '睡眠评分')).toBe(String(figures.score));
    const [h, m] = hoursMinutes(figures.totalSleep ?? 0);
    expect(valueAfter(content, '总睡眠时长')).toBe(`${h} 小时 ${m} 分钟`);
    expect(content.pages[0]).toContain('呼吸暂停低通气指数（AHI）');
    expect(content.pages[0]).toContain(`${(figures.ahi ?? 0).toFixed(1)} 次/小时`);
    expect(content.pages[0]).toContain(`事件：${figures.apneaEvents} 次`);
    for (const label of [
      '在床时长',
      '睡眠效率',
      '深睡比例',
      '入睡后清醒时间',
      '心率变异性（HRV）',
      '房颤风险',
      '风险等级',
    ]) {
      expect(content.flat).toContain(label);
    }
    expect(content.flat).toContain('睡眠分期（每 30 秒）');
    expect(content.flat).toContain('每分钟心率（次/分）');
    expect(content.compact).toContain('可能存在心房颤动：心跳在夜间部分时间不规则。');
    // Bed time 22:10 in Shanghai, the analysed window and the wake-up in the platform's zone.
    expect(valueAfter(content, '上床')).toBe('22:10');
    expect(content.pages[0]).toContain('分析时段 21:00 – 7:10');
    expect(content.pages).toHaveLength(2);
    expect(content.pages[1]).toContain('第 2 页，共 2 页');
    expect(content.pages[1]).toContain('仅供筛查参考，不作为医疗诊断');

    expect(content.fontFiles).toBeGreaterThanOrEqual(3);
    expect(content.fonts.some((f) => /^[A-Z]{6}\+NotoSansSC-Bold$/.test(f))).toBe(true);
    expect(content.fonts.some((f) => /^[A-Z]{6}\+NotoSans-Regular$/.test(f))).toBe(true);
    expect(content.standardFonts).toEqual([]);
    // Subsets: the whole Noto Sans SC regular is 10.5 MB.
    expect(pdf.byteLength).toBeLessThan(400_000);
  });

  it('prints a Czech night with accents, Czech numbers and labels', async () => {
    const { report, data } = nightFixture({ resident: residentFixture('Zdeněk Šťastný', { gender: '0' }) });
    const figures = figuresOf(report);
    const content = await readPdf(
      await renderDailyReportPdf({ report, data, language: 'cs', timeZone: 'Europe/Prague' }),
    );
    expect(content.pages[0]).toContain('Zdeněk Šťastný');
    expect(content.pages[0]).toContain('Muž · Věk: 84');
    expect(content.pages[0]).toContain('Noc na 2. března 2026');
    expect(valueAfter(content, 'Skóre spánku')).toBe(String(figures.score));
    const [h, m] = hoursMinutes(figures.totalSleep ?? 0);
    expect(valueAfter(content, 'Celková doba spánku')).toBe(`${h} h ${m} min`);
    expect(valueAfter(content, 'Index apnoe-hypopnoe (AHI)')).toBe(
      `${(figures.ahi ?? 0).toFixed(1).replace('.', ',')} příhod/h`,
    );
    expect(valueAfter(content, 'Efektivita spánku')).toBe(`${Math.round((figures.efficiency ?? 0) * 100)} %`);
    expect(content.flat).toContain('Spánková stadia (po 30 s)');
    expect(content.flat).toContain('Pomůcka pro screening, nikoli lékařská diagnóza');
    expect(content.fonts.every((f) => /NotoSans-(Regular|Bold)$/.test(f))).toBe(true);
  });

  const names: [string, Language, RegExp][] = [
    ['张三', 'en-US', /NotoSansSC/],
    ['张三', 'ja', /NotoSansSC/],
    ['张三', 'ko', /NotoSansSC/],
    ['佐藤 花子', 'ja', /NotoSansJP/],
    ['佐藤 花子', 'fr', /NotoSansSC/],
    ['김민준', 'de', /NotoSansKR/],
    ['김민준', 'zh-CN', /NotoSansKR/],
    ['Zdeněk Šťastný', 'ko', /NotoSans-Bold/],
    ['Zdeněk Šťastný', 'zh-CN', /NotoSans-Bold/],
  ];
  it.each(names)(
    'prints the resident "%s" in a %s report with the font that has the glyphs',
    async (name, language, font) => {
      const { report, data } = nightFixture({ resident: residentFixture(name) });
      const content = await readPdf(await renderDailyReportPdf({ report, data, language, timeZone: 'Europe/Prague' }));
      expect(content.items[0]).toContain(name);
      expect(content.pages[1]).toContain(name);
      expect(content.fonts.some((f) => font.test(f))).toBe(true);
    },
  );

  it.each(['noData', 'notInBed', 'littleSignal'] as const)(
    'prints an insufficient night (%s) with its notice and "—" instead of a score and figures',
    async (reason) => {
      const { report, data } = insufficientNightFixture(reason, { resident: residentFixture('Margaret Ellis') });
      const content = await readPdf(
        await renderDailyReportPdf({ report, data, language: 'en-US', timeZone: 'Europe/Prague' }),
      );
      const notices = {
        noData: 'No data from the sleep monitor this night',
        notInBed: 'The resident was not in bed this night',
        littleSignal: 'Too little valid signal to score this night',
      };
      expect(content.pages[0]).toContain('This night cannot be scored');
      expect(content.pages[0]).toContain(notices[reason]);
      expect(valueAfter(content, 'Sleep score')).toBe('—');
      for (const label of [
        'Total sleep',
        'Sleep efficiency',
        'Apnea-hypopnea index (AHI)',
        'Heart rate',
        'Went to bed',
      ]) {
        expect(valueAfter(content, label)).toBe('—');
      }
      expect(content.pages[0]).toContain('— / 30');
      expect(content.pages[0]).toContain('No grade: the night could not be scored.');
      expect(content.pages[0]).not.toContain('read these figures with care');
    },
  );

  it('prints the German insufficient notice', async () => {
    const { report, data } = insufficientNightFixture('notInBed');
    const content = await readPdf(
      await renderDailyReportPdf({ report, data, language: 'de', timeZone: 'Europe/Berlin' }),
    );
    expect(content.pages[0]).toContain('Die betreute Person war in dieser Nacht nicht im Bett');
    expect(valueAfter(content, 'Schlafwert')).toBe('—');
  });

  it('notes low coverage on a scored night, and not on a well-covered one', async () => {
    const low = nightFixture({ coverage: 0.55 });
    const lowText = await readPdf(await renderDailyReportPdf({ ...low, language: 'en-US', timeZone: 'Europe/Prague' }));
    expect(lowText.flat).toContain('Less than 60% of the night was recorded: read these figures with care.');
    expect(lowText.pages[0]).toContain('Data coverage 55% of the night');
    const full = nightFixture();
    const fullText = await readPdf(
      await renderDailyReportPdf({ ...full, language: 'en-US', timeZone: 'Europe/Prague' }),
    );
    expect(fullText.flat).not.toContain('read these figures with care');
  });

  it('shows clock times in the time zone it is given', async () => {
    const { report, data } = nightFixture({ timeZone: 'Europe/Prague' });
    // 22:10 in Prague (UTC+1 in March) is 05:10 the next morning in Shanghai.
    const shanghai = await readPdf(
      await renderDailyReportPdf({ report, data, language: 'de', timeZone: 'Asia/Shanghai' }),
    );
    expect(valueAfter(shanghai, 'Zu Bett gegangen')).toBe('5:10');
    const newYork = await readPdf(
      await renderDailyReportPdf({ report, data, language: 'en-US', timeZone: 'America/New_York' }),
    );
    expect(valueAfter(newYork, 'Went to bed')).toBe('4:10 PM');
  });

  it('prints the figures without charts when the night has no curves', async () => {
    const { report } = nightFixture();
    const content = await readPdf(
      await renderDailyReportPdf({ report, data: null, language: 'it', timeZone: 'Europe/Rome' }),
    );
    expect(content.flat).toContain('Nessuna curva disponibile per questa notte.');
    expect(valueAfter(content, 'Punteggio del sonno')).toBe(String(report.figures?.score));
    expect(content.flat).not.toContain('Frequenza cardiaca al minuto');
  });

  it('refuses what it cannot print truthfully', async () => {
    const { report, data } = nightFixture();
    await expect(
      renderDailyReportPdf({ report: { ...report, state: 'computing' }, data, language: 'en-US', timeZone: 'UTC' }),
    ).rejects.toThrow(/ready/);
    await expect(renderDailyReportPdf({ report, data, language: 'xx' as Language, timeZone: 'UTC' })).rejects.toThrow(
      RangeError,
    );
    await expect(renderDailyReportPdf({ report, data, language: 'en-US', timeZone: 'Mars/Olympus' })).rejects.toThrow(
      RangeError,
    );
  });
});
