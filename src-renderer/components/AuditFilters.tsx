import { appStore } from '../store/appStore.js';
import { useTranslation } from 'react-i18next';
import { selectAuditFilter, selectAuditToolIds, type AuditFilter } from '../store/slices/auditSlice.js';
import { useAppStore } from '../store/useAppStore.js';

/** One `<select>` per filter; the empty value means "all". */
function FilterSelect({
  label,
  testId,
  value,
  options,
  onChange,
}: {
  label: string;
  testId: string;
  value: string | undefined;
  options: [string, string][];
  onChange(value: string | undefined): void;
}) {
  const { t } = useTranslation('audit');
  return (
    <label className="audit-filters__field">
      <span>{label}</span>
      <select data-testid={testId} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{t('all')}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Tool, caller and outcome filters; main does the filtering (`audit/list`). */
export function AuditFilters() {
  const { t } = useTranslation('audit');
  const filter = useAppStore(selectAuditFilter);
  const toolIds = useAppStore(selectAuditToolIds);
  const set = (patch: AuditFilter) => appStore.getState().setAuditFilter(patch);
  // A filtered tool stays choosable even before the log has shown it.
  const tools = filter.toolId && !toolIds.includes(filter.toolId) ? [...toolIds, filter.toolId] : toolIds;
  return (
    <div className="audit-filters">
      <FilterSelect
        label={t('tool')}
        testId="audit-filter-tool"
        value={filter.toolId}
        options={tools.map((id) => [id, id])}
        onChange={(toolId) => set({ toolId })}
      />
      <FilterSelect
        label={t('caller')}
        testId="audit-filter-caller"
        value={filter.caller}
        options={[
          ['user', t('you')],
          ['model', t('assistant')],
          ['client', t('mcpClient')],
        ]}
        onChange={(v) => set({ caller: v as AuditFilter['caller'] })}
      />
      <FilterSelect
        label={t('outcome')}
        testId="audit-filter-outcome"
        value={filter.outcome}
        options={[
          ['ok', t('ok')],
          ['error', t('error')],
        ]}
        onChange={(v) => set({ outcome: v as AuditFilter['outcome'] })}
      />
    </div>
  );
}
