import { Scorecard, type ScorecardEndpoint } from '../../src-shared/domain/modelScorecard.js';
import { endpointHash } from '../model/endpointCapabilities.js';
import type { AppSettingsDb } from './appSettingsDb.js';

/**
 * The last scorecard of each endpoint, in the app settings file under a key made of the
 * provider, the wire, the normalised base URL and the model. Read back through zod: an entry
 * of an older shape, or a damaged one, reads as none.
 */
export interface ScorecardStore {
  get(endpoint: ScorecardEndpoint): Scorecard | null;
  save(scorecard: Scorecard): void;
}

export function scorecardKey(endpoint: ScorecardEndpoint): string {
  return `model-scorecard:${endpoint.provider}:${endpointHash(endpoint.wire, endpoint.url, endpoint.model)}`;
}

export function createScorecardStore(db: Pick<AppSettingsDb, 'get' | 'set'>): ScorecardStore {
  return {
    get(endpoint) {
      const parsed = Scorecard.safeParse(db.get<unknown>(scorecardKey(endpoint)));
      return parsed.success ? parsed.data : null;
    },
    save(scorecard) {
      db.set(scorecardKey(scorecard.endpoint), scorecard);
    },
  };
}
