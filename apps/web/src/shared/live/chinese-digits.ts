const DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/**
 * Digits read one by one in spoken Chinese ("201床" → "二零一床"), as the spec asks for bed names
 * in alarm speech: a speech engine would otherwise say "two hundred and one".
 */
export const spokenChineseDigits = (text: string): string => text.replace(/\d/g, (d) => DIGITS[Number(d)] ?? d);
