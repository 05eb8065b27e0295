import { defineMessages } from '../define.ts';

/** Sleep reports and sleep settings. */
export const reportMessages = defineMessages(
  {
    'report.dateFormat': '{field} must be a date written YYYY-MM-DD, for example 2026-03-01.',
    'report.monthFormat': '{field} must be a month written YYYY-MM, for example 2026-03.',
    'report.notFound': 'There is no finished report for this night yet.',
    'report.notEnded': 'This night has not ended yet: its report is made after the wake time.',
    'report.failed': 'The report could not be made. Please try again later.',
    'field.date': 'Date',
    'field.month': 'Month',
    'field.startDate': 'From',
    'field.endDate': 'To',
    'field.riskGrade': 'Risk grade',
    'field.userIds': 'Residents',
    'field.lang': 'Language',
    'sleepSetting.oneProvider':
      'The chosen residents belong to several providers. Save each provider’s residents separately.',
  },
  {
    'report.dateFormat': '{field}必须是 YYYY-MM-DD 格式的日期，例如 2026-03-01。',
    'report.monthFormat': '{field}必须是 YYYY-MM 格式的月份，例如 2026-03。',
    'report.notFound': '该晚的报告尚未生成。',
    'report.notEnded': '该晚尚未结束：报告在起床时间之后生成。',
    'report.failed': '报告生成失败，请稍后重试。',
    'field.date': '日期',
    'field.month': '月份',
    'field.startDate': '开始日期',
    'field.endDate': '结束日期',
    'field.riskGrade': '风险等级',
    'field.userIds': '住户',
    'field.lang': '语言',
    'sleepSetting.oneProvider': '所选长者属于多个服务商，请按服务商分别保存。',
  },
);
