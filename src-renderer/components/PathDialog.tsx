import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FileKindIcon } from './FileKindIcon.js';
import './AddDataDialog.css';

/** The test ids of one dialog's parts (a public contract: README "Public test contract"). */
export interface PathDialogIds {
  dialog: string;
  close?: string;
  path: string;
  submit: string;
  error: string;
}

/**
 * The frame the path dialogs share (Add data, Open / Save project, Locate a file): a title with
 * a close button, a path field with its submit button, main's refusal under it, and what the
 * dialog adds below (the folder browser, recent entries). Each dialog keeps its own state.
 */
export function PathDialog(props: {
  ids: PathDialogIds;
  title: string;
  path: string;
  onPathChange(path: string): void;
  onSubmit(text: string): void;
  onClose(): void;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  placeholder?: string;
  pathLabel?: string;
  pathHint?: string;
  mode?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('common');
  const { ids } = props;
  function submit(e: FormEvent) {
    e.preventDefault();
    props.onSubmit(props.path.trim());
  }
  return (
    <div className="popover add-data" role="dialog" aria-label={props.title} data-testid={ids.dialog} data-mode={props.mode}>
      <header className="popover__head">
        <strong>{props.title}</strong>
        <button type="button" className="icon-btn" aria-label={t('close')} data-testid={ids.close} onClick={props.onClose}>
          ✕
        </button>
      </header>
      <form className="add-data__path" onSubmit={submit}>
        <input
          type="text"
          data-testid={ids.path}
          aria-label={props.pathLabel}
          title={props.pathHint}
          value={props.path}
          placeholder={props.placeholder}
          spellCheck={false}
          autoFocus
          onChange={(e) => props.onPathChange(e.target.value)}
          disabled={props.busy}
        />
        <button type="submit" className="btn btn--small btn--primary" data-testid={ids.submit} disabled={props.busy}>
          {props.submitLabel}
        </button>
      </form>
      {props.error && (
        <div className="layer-item__error" role="alert" data-testid={ids.error}>
          {props.error}
        </div>
      )}
      {props.children}
    </div>
  );
}

/** One entry of a path dialog's recent list. */
export interface RecentEntry {
  path: string;
  name: string;
  title: string;
  disabled: boolean;
  onPick(): void;
}

/** The recent files or projects under a path dialog's browser; nothing when there are none. */
export function RecentEntries(props: { heading: string; listTestId?: string; itemTestId: string; entries: readonly RecentEntry[] }) {
  if (props.entries.length === 0) return null;
  return (
    <section className="add-data__recent">
      <h4>{props.heading}</h4>
      <ul data-testid={props.listTestId}>
        {props.entries.map((e) => (
          <li key={e.path}>
            <button
              type="button"
              className="add-data__entry"
              data-testid={props.itemTestId}
              data-path={e.path}
              title={e.title}
              disabled={e.disabled}
              onClick={e.onPick}
            >
              <FileKindIcon kind="recent" />
              <span className="add-data__name">{e.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
