import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import { toolTitle } from '../i18n/toolTitles.js';
import { prettyJson } from '../lib/jsonTokens.js';
import { formatDuration } from './format.js';
import { CodeView } from './CodeView.js';
import { JsonView } from './JsonView.js';
import { QaReportView } from './QaReportView.js';
import { ToolCardProgress } from './ToolCardProgress.js';

type ToolInfo = NonNullable<ChatMessage['tool']>;

/** Arguments longer than this start folded, so a big call does not push the chat away. */
const FOLD_LINES = 10;

/** One tool call in the chat: what ran, on what, how it went. */
export function ToolCallCard({ tool }: { tool: ToolInfo }) {
  const { t } = useTranslation('chat');
  const duration = formatDuration(tool.durationMs);
  // Once per arguments, not at every status change of the card (nor every re-render of the chat).
  const argLines = useMemo(() => prettyJson(tool.args).split('\n').length, [tool.args]);
  const error = tool.result && !tool.result.ok ? tool.result.error : null;
  const code = useMemo(() => codeArgs(tool), [tool]);
  return (
    <div className={`tool-card tool-card--${tool.status}`}>
      <div className="tool-card__head">
        <span className="tool-card__title">{toolTitle(tool.toolId, tool.title || tool.name)}</span>
        <code className="tool-card__wire">{tool.name}</code>
        <span className="tool-card__spacer" />
        {duration && <span className="tool-card__duration">{duration}</span>}
        <span className={`status-badge status-badge--${tool.status}`} data-testid="tool-card-status" data-status={tool.status}>
          {t(`status_${tool.status}`)}
        </span>
      </div>
      {tool.summary && <div className="tool-card__summary">{tool.summary}</div>}
      <ToolCardProgress callId={tool.callId} status={tool.status} />
      <details className="tool-card__args" open={argLines <= FOLD_LINES}>
        <summary>{t('arguments')}</summary>
        {code ? (
          <>
            <CodeView code={code.code} language={code.language} />
            <JsonView value={code.rest} />
          </>
        ) : (
          <JsonView value={tool.args} />
        )}
      </details>
      {tool.result?.ok && <QaReportView data={tool.result.data} />}
      {error && (
        <div className="tool-card__error" role="alert">
          <strong>{error.code}</strong>: {error.message}
          {error.hint && <div className="tool-card__hint">{error.hint}</div>}
        </div>
      )}
    </div>
  );
}

/** The code runners' languages, by tool id: their `code` argument is shown highlighted, not as a JSON string. */
const CODE_LANGUAGES: Record<string, string> = { 'code.run_js': 'javascript', 'code.run_python': 'python' };

function codeArgs(tool: ToolInfo): { code: string; language: string; rest: Record<string, unknown> } | null {
  const language = tool.toolId ? CODE_LANGUAGES[tool.toolId] : undefined;
  const args = tool.args as Record<string, unknown> | null;
  if (!language || !args || typeof args !== 'object' || typeof args.code !== 'string') return null;
  const { code, ...rest } = args;
  return { code, language, rest };
}
