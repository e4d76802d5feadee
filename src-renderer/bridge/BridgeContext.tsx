import { createContext, useContext } from 'react';
import type { RendererBridge } from './bridgeTypes.js';

export const BridgeContext = createContext<RendererBridge | null>(null);

/** Components reach main only through this; main.tsx provides the one instance. */
export function useBridge(): RendererBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge() outside <BridgeContext.Provider>');
  return bridge;
}
