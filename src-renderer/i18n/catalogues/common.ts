import { defineCatalogue } from '../catalogue.js';

/** Words many areas share. */
export const common = defineCatalogue({
  en: {
    close: 'Close',
    cancel: 'Cancel',
    save: 'Save',
    minutesSeconds: '{{minutes}} min {{seconds}} s',
  },
  'zh-CN': {
    close: '关闭',
    cancel: '取消',
    save: '保存',
    minutesSeconds: '{{minutes}} 分 {{seconds}} 秒',
  },
});
