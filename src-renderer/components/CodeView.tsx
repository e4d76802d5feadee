import hljs from 'highlight.js/lib/core';
import javascript from 'highlight.js/lib/languages/javascript';
import python from 'highlight.js/lib/languages/python';
import { useMemo } from 'react';
import 'highlight.js/styles/github-dark.css';
import './CodeView.css';

// Only the languages the code tools run: the core and two grammars, not the whole bundle.
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('python', python);

/** Whether the block can highlight `language` (anything else is shown as plain text). */
export function highlightable(language: string): boolean {
  return hljs.getLanguage(language) !== undefined;
}

/**
 * Code to approve, highlighted by highlight.js with line numbers. highlight.js escapes the
 * source (`&`, `<`, `>`, quotes) and adds only `<span class="hljs-…">`, so its HTML is safe to
 * insert; the colours are classes from a stylesheet (the CSP allows no inline <style>).
 */
export function CodeView({ code, language, testId }: { code: string; language: string; testId?: string }) {
  const html = useMemo(
    () => (highlightable(language) ? hljs.highlight(code, { language, ignoreIllegals: true }).value : escapeHtml(code)),
    [code, language],
  );
  const lines = useMemo(() => code.split('\n').length, [code]);
  return (
    <div className="code-view" data-testid={testId} data-language={language}>
      <pre className="code-view__gutter" aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('')}
      </pre>
      <pre className="code-view__code hljs">
        <code className={`language-${language}`} dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </div>
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
