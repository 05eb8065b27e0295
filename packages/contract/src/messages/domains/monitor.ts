import { defineMessages } from '../define.ts';

/** Live monitoring: the focus residents of an account. */
export const monitorMessages = defineMessages(
  {
    'monitor.focusLimit': 'You can keep at most {max} focus residents. Remove one before adding another.',
  },
  {
    'monitor.focusLimit': '最多可设置 {max} 位重点关注长者，请先移除一位再添加。',
  },
);
