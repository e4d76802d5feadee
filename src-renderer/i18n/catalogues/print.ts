import { defineCatalogue } from '../catalogue.js';

/** The export dialog (print layout as PDF or PNG). */
export const print = defineCatalogue({
  en: {
    unexpected: 'The export sent an unexpected answer',
    title: 'Export map',
    hint: 'The map as you see it, with its title, legend, scale bar, north arrow, attribution and today’s date, saved in the project’s outputs folder.',
    mapTitle: 'Title',
    untitled: 'Untitled map',
    pageSize: 'Page size',
    orientation: 'Orientation',
    landscape: 'Landscape',
    portrait: 'Portrait',
    saved: 'Saved {{format}} ({{width}} × {{height}} px, {{dpi}} DPI):',
    exporting: 'Exporting…',
    exportPng: 'Export PNG',
    exportPdf: 'Export PDF',
    openTitle: 'Export the map as a print layout (PDF or PNG)',
    open: 'Export',
  },
  'zh-CN': {
    unexpected: '导出返回了意外的结果',
    title: '导出地图',
    hint: '按您当前看到的地图导出，包含标题、图例、比例尺、指北针、版权说明和今天的日期，保存在项目的输出文件夹中。',
    mapTitle: '标题',
    untitled: '未命名地图',
    pageSize: '纸张大小',
    orientation: '方向',
    landscape: '横向',
    portrait: '纵向',
    saved: '已保存 {{format}}（{{width}} × {{height}} 像素，{{dpi}} DPI）：',
    exporting: '正在导出…',
    exportPng: '导出 PNG',
    exportPdf: '导出 PDF',
    openTitle: '将地图导出为打印布局（PDF 或 PNG）',
    open: '导出',
  },
});
