import { ApprovalDialog } from './components/ApprovalDialog.js';
import { AuditPanel } from './components/AuditPanel.js';
import { ChatDock } from './components/ChatDock.js';
import { LayerPanel } from './components/LayerPanel.js';
import { MapLegend } from './components/MapLegend.js';
import { MapView } from './components/MapView.js';
import { SettingsPanel } from './components/SettingsPanel.js';
import { StatusBar } from './components/StatusBar.js';

/** Layout only: each region subscribes to the store itself. */
export function App() {
  return (
    <div className="app">
      <div className="app__main">
        <LayerPanel />
        <div className="map-area">
          <MapView />
          <MapLegend />
        </div>
        <ChatDock />
      </div>
      <StatusBar />
      <AuditPanel />
      <SettingsPanel />
      <ApprovalDialog />
    </div>
  );
}
