import { useCallback, useMemo, useState } from 'react';
import { defaultColumnWidth, type Field } from './tableFormat.js';

/**
 * Column widths of the open table: a default from each field's name and type until the person
 * drags one. Kept for the life of the panel (it is keyed by layer, so another layer starts anew).
 */
export function useColumnWidths(fields: readonly Field[]): {
  widths: Record<string, number>;
  totalWidth: number;
  resize(field: string, width: number): void;
} {
  const [dragged, setDragged] = useState<Record<string, number>>({});
  const widths = useMemo(
    () => Object.fromEntries(fields.map((f) => [f.name, dragged[f.name] ?? defaultColumnWidth(f.name, f.type)])),
    [fields, dragged],
  );
  const totalWidth = useMemo(() => Object.values(widths).reduce((sum, w) => sum + w, 0), [widths]);
  const resize = useCallback((field: string, width: number) => setDragged((d) => (d[field] === width ? d : { ...d, [field]: width })), []);
  return { widths, totalWidth, resize };
}
