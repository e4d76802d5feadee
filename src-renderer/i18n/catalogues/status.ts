import { defineCatalogue } from '../catalogue.js';

/** The status bar: run and connection state, model, progress, coordinates. */
export const status = defineCatalogue({
  en: {
    run_idle: 'Ready',
    run_running: 'Working…',
    run_awaiting_approval: 'Waiting for your approval',
    conn_connecting: 'Connecting…',
    conn_open: 'Connected',
    conn_reconnecting: 'Connection lost, reconnecting…',
    conn_closed: 'Disconnected',
    modelConfigured: 'Model configured',
    noModel: 'No model configured',
    loadError: 'Could not load the project: {{error}}',
    working: 'Working',
    unavailable: 'EPSG:{{epsg}} unavailable',
    outOfRange: 'EPSG:{{epsg}} out of range',
    cursorTitle: "Cursor position: WGS 84 degrees, then the project CRS (EPSG:{{epsg}}, the bottom layer's)",
  },
  'zh-CN': {
    run_idle: '就绪',
    run_running: '正在处理…',
    run_awaiting_approval: '等待您的批准',
    conn_connecting: '正在连接…',
    conn_open: '已连接',
    conn_reconnecting: '连接中断，正在重连…',
    conn_closed: '已断开',
    modelConfigured: '已配置模型',
    noModel: '未配置模型',
    loadError: '无法加载项目：{{error}}',
    working: '处理中',
    unavailable: 'EPSG:{{epsg}} 不可用',
    outOfRange: 'EPSG:{{epsg}} 超出范围',
    cursorTitle: '光标位置：WGS 84 度，然后是项目坐标参考系（EPSG:{{epsg}}，即最底层图层的坐标参考系）',
  },
});
