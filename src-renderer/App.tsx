import { AnnotationPanel } from './components/AnnotationPanel.js';
import { ApprovalDialog } from './components/ApprovalDialog.js';
import { AttributeTable } from './components/AttributeTable.js';
import { AuditPanel } from './components/AuditPanel.js';
import { ChatDock } from './components/ChatDock.js';
import { LayerPanel } from './components/LayerPanel.js';
import { MapLegend } from './components/MapLegend.js';
import { MapView } from './components/MapView.js';
import { MemoryPanel } from './components/MemoryPanel.js';
import { PluginsPanel } from './components/PluginsPanel.js';
import { ProjectBar } from './components/ProjectBar.js';
import { SettingsPanel } from './components/SettingsPanel.js';
import { StatusBar } from './components/StatusBar.js';
import { StylePanel } from './components/StylePanel.js';
import { useUiLanguage } from './i18n/useUiLanguage.js';
import { useLayerRemovalCleanup } from './store/useLayerRemovalCleanup.js';

/** Layout only: each region subscribes to the store itself. */
export function App() {
  useLayerRemovalCleanup();
  useUiLanguage();
  return (
    <div className="app">
      <ProjectBar />
      <div className="app__main">
        <LayerPanel />
        <StylePanel />
        <div className="map-area">
          <div className="map-area__map">
            <MapView />
            <MapLegend />
            <AnnotationPanel />
          </div>
          <AttributeTable />
        </div>
        <ChatDock />
      </div>
      <StatusBar />
      {/* Before the audit log: opened after it, the audit log's drawer lies on top. */}
      <PluginsPanel />
      <AuditPanel />
      <MemoryPanel />
      <SettingsPanel />
      <ApprovalDialog />
    </div>
  );
}
