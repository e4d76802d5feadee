import type { Emit } from '../../src-shared/bridge/contract.js';
import type { ApprovalMode, PolicyState } from '../../src-shared/domain/toolLayer.js';
import type { SettingsRepo } from '../store/settingsRepo.js';
import type { ApprovalBroker } from './approvalBroker.js';

/** The approval mode and the reads-ask setting, saved with the project and announced on change. */
export class PolicyStateStore {
  constructor(
    private readonly settings: SettingsRepo,
    private readonly approvals: ApprovalBroker,
    private readonly emit: Emit,
  ) {}

  get(): PolicyState {
    return {
      mode: this.settings.get<ApprovalMode>('approval.mode', 'ask'),
      askForReads: this.settings.get<boolean>('approval.askForReads', false),
      grants: this.approvals.grantedToolIds(),
    };
  }

  setMode(mode: ApprovalMode): PolicyState {
    this.settings.set('approval.mode', mode);
    return this.announce();
  }

  setAskForReads(value: boolean): PolicyState {
    this.settings.set('approval.askForReads', value);
    return this.announce();
  }

  announce(): PolicyState {
    const state = this.get();
    this.emit('policy/changed', state);
    return state;
  }
}
