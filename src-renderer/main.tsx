import 'maplibre-gl/dist/maplibre-gl.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { BridgeContext } from './bridge/BridgeContext.js';
import { createBridgeClient } from './bridge/createBridgeClient.js';
import './i18n/i18n.js';
import { appStore } from './store/appStore.js';
import { syncStoreWithBridge } from './store/bridgeSync.js';

// One bridge and one store sync for the page's lifetime, started before the first render so
// no event is missed.
const bridge = createBridgeClient();
syncStoreWithBridge(bridge, appStore);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <BridgeContext.Provider value={bridge}>
      <App />
    </BridgeContext.Provider>
  </StrictMode>,
);
