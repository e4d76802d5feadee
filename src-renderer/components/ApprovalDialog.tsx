import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { toolTitle } from '../i18n/toolTitles.js';
import { appStore } from '../store/appStore.js';
import { selectCurrentApproval, selectPendingApprovalCount } from '../store/slices/approvalsSlice.js';
import { useAppStore } from '../store/useAppStore.js';
import { ApprovalPreview } from './ApprovalPreview.js';
import { ChangeSampleView } from './ChangeSampleView.js';
import { CodeView } from './CodeView.js';
import { JsonView } from './JsonView.js';

type Decision = 'approve' | 'reject';

/** Multi-line string arguments (a script, an SQL query) read better as text than as escaped JSON. */
function longTextArgs(args: unknown): [string, string][] {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return [];
  return Object.entries(args).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].includes('\n'));
}

/**
 * A code run (any tool whose arguments carry a string `code` and whose preview names its
 * `language`: code.run_js, the Python runner): the code is shown highlighted, its `intent`
 * first, and neither is repeated in the arguments below.
 */
function codeRequest(request: ApprovalRequest): { code: string; language: string; intent: string | null } | null {
  const args = request.args as Record<string, unknown> | null;
  const language = request.preview?.language;
  if (!args || typeof args !== 'object' || typeof args.code !== 'string' || typeof language !== 'string') return null;
  return { code: args.code, language, intent: typeof args.intent === 'string' ? args.intent : null };
}

function without<T extends object>(value: T, keys: readonly string[]): T {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k))) as T;
}

function hasKeys(value: unknown): boolean {
  return !!value && typeof value === 'object' && Object.keys(value).length > 0;
}

function ApprovalCard({ request, queued }: { request: ApprovalRequest; queued: number }) {
  const code = codeRequest(request);
  const shownArgs = code && request.args && typeof request.args === 'object' ? without(request.args, ['code', 'intent']) : request.args;
  const shownPreview = code && request.preview ? without(request.preview, ['language', 'intent']) : request.preview;
  const { t } = useTranslation('approval');
  const bridge = useBridge();
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  async function decide(decision: Decision) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await bridge.call('tools/decide', { approvalId: request.id, decision, remember: decision === 'approve' && remember });
      // accepted:false means it was already decided (another window, a time-out): drop it too.
      appStore.getState().resolveApproval(request.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  // Escape is a rejection, as closing is (DESIGN §4). Listening on the document catches it
  // wherever focus is.
  const decideRef = useRef(decide);
  useEffect(() => {
    decideRef.current = decide;
  });
  useEffect(() => {
    dialogRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      void decideRef.current('reject');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      className={`approval-dialog approval-dialog--${request.safety}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby="approval-title"
      data-testid="approval-dialog"
      data-approval-id={request.id}
      tabIndex={-1}
      ref={dialogRef}
    >
      <header className="approval-dialog__head">
        <h2 id="approval-title">
          {toolTitle(request.toolId, request.title)} {request.wireName && <code className="approval-dialog__wire">{request.wireName}</code>}
        </h2>
        <span className={`safety-badge safety-badge--${request.safety}`}>{t(`safety_${request.safety}`)}</span>
        <button type="button" className="icon-btn" aria-label={t('closeReject')} onClick={() => void decide('reject')} disabled={busy}>
          ×
        </button>
      </header>
      <div className="approval-dialog__body">
        {code?.intent ? (
          <p className="approval-dialog__intent" data-testid="approval-intent">
            {code.intent}
          </p>
        ) : (
          <p className="approval-dialog__summary">{request.summary}</p>
        )}
        {request.network && request.network.length > 0 && (
          <div className="approval-dialog__network" role="note" data-testid="approval-network">
            {t('network')}{' '}
            {request.network.map((origin) => (
              <code key={origin}>{origin}</code>
            ))}{' '}
            — {t(`kept_${request.networkKept ?? 'call'}`)}
          </div>
        )}
        {request.fromInterface && (
          <div className="approval-dialog__network" role="note">
            {t('fromInterface')}
          </div>
        )}
        {code && (
          <>
            <div className="approval-dialog__label">
              {t('code')} <code>{code.language}</code>
            </div>
            <CodeView code={code.code} language={code.language} testId="approval-code" />
          </>
        )}
        {shownPreview && <ApprovalPreview preview={shownPreview} />}
        {request.sample && <ChangeSampleView sample={request.sample} />}
        {/* A code tool's description ends with the API written for the model: its first line is the person's. */}
        <p className="approval-dialog__description">{code ? request.description.split('\n')[0] : request.description}</p>
        {(!code || hasKeys(shownArgs)) && (
          <>
            <div className="approval-dialog__label">
              {t('arguments')} <code>{request.toolId}</code>
            </div>
            <JsonView value={shownArgs} className="approval-dialog__args" />
          </>
        )}
        {longTextArgs(shownArgs).map(([name, text]) => (
          <div key={name}>
            <div className="approval-dialog__label">{name}</div>
            <pre className="approval-dialog__text">{text}</pre>
          </div>
        ))}
        {error && (
          <div className="approval-dialog__error" role="alert">
            {error}
          </div>
        )}
      </div>
      <footer className="approval-dialog__foot">
        {request.rememberable ? (
          <label className="approval-dialog__remember">
            <input type="checkbox" data-testid="approval-remember" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            {/* A rememberable network call is a plugin's own endpoint: kept for its version, in this project. */}
            {request.network?.length ? t('allowOrigins', { origins: request.network.join(', ') }) : t('allowSession')}
          </label>
        ) : (
          <span />
        )}
        {queued > 0 && <span className="approval-dialog__queued">{t('queued', { count: queued })}</span>}
        <button type="button" className="btn" data-testid="approval-reject" onClick={() => void decide('reject')} disabled={busy}>
          {t('reject')}
        </button>
        <button
          type="button"
          className={`btn ${request.safety === 'destructive' ? 'btn--danger' : 'btn--primary'}`}
          data-testid="approval-approve"
          onClick={() => void decide('approve')}
          disabled={busy}
        >
          {t('approve')}
        </button>
      </footer>
    </div>
  );
}

/** The modal for the oldest pending approval; main owns the policy, this only asks and answers. */
export function ApprovalDialog() {
  const request = useAppStore(selectCurrentApproval);
  const count = useAppStore(selectPendingApprovalCount);
  if (!request) return null;
  return (
    <div className="modal-backdrop">
      {/* keyed by id: a new request starts with the checkbox cleared and nothing in flight */}
      <ApprovalCard key={request.id} request={request} queued={count - 1} />
    </div>
  );
}
