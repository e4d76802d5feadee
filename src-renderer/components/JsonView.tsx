import { useMemo } from 'react';
import { prettyJson, tokenizeJson } from '../lib/jsonTokens.js';

/** Pretty JSON with keys, strings, numbers and literals coloured; text is rendered, never parsed as HTML. */
export function JsonView({ value, className }: { value: unknown; className?: string }) {
  const tokens = useMemo(() => tokenizeJson(prettyJson(value)), [value]);
  return (
    <pre className={`json-view ${className ?? ''}`}>
      <code>
        {tokens.map((token, i) =>
          token.kind === 'plain' || token.kind === 'punct' ? (
            token.text
          ) : (
            <span key={i} className={`json-${token.kind}`}>
              {token.text}
            </span>
          ),
        )}
      </code>
    </pre>
  );
}
