import { useCallback, useEffect, useRef, useState } from 'react';
import type { AttributeRow, RowsPage } from '../../src-shared/bridge/attributeContract.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { PAGE_SIZE, PageCache, pageOf } from './pageCache.js';
import type { SortOrder } from './tableFormat.js';

export interface RowQuery {
  orderBy: SortOrder;
  where: string | null;
}

export interface RowPages {
  /** Rows matching the applied query; null until the first page has come. */
  total: number | null;
  fields: RowsPage['fields'];
  /** The query the rows show (a failed one is not applied). */
  query: RowQuery;
  /** Rows of the whole layer, when a filterless answer has told us. */
  unfilteredTotal: number | null;
  /** A page that could not be read (the filter's own errors come back from `apply`). */
  error: string | null;
  /** Bumped whenever rows arrive or the query changes, for components that draw from the cache. */
  version: number;
  rowAt(index: number): AttributeRow | undefined;
  indexOfFid(fid: number): number | undefined;
  fidsBetween(a: number, b: number): number[];
  /** Fetches the pages of rows first..last not yet loaded or on their way. */
  ensure(first: number, last: number): void;
  /** Runs a new sort/filter; resolves null once shown, or the error (the old rows stay). */
  apply(query: RowQuery): Promise<string | null>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The attribute table's rows of one layer, fetched a page at a time through `layers/rows`
 * into a small cache (PageCache). A new query is tried on its first page before it replaces
 * the old one, so a bad filter leaves the table as it was and reports why. `dataKey` names
 * the layer's data (its source and edit revision): when it changes, the cached pages are
 * dropped and the rows read again under the same sort and filter, where the person was.
 */
export function useRowPages(layerId: string, dataKey = ''): RowPages {
  const bridge = useBridge();
  const [shown, setShown] = useState<Pick<RowPages, 'total' | 'fields' | 'query' | 'unfilteredTotal' | 'error'>>({
    total: null,
    fields: [],
    query: { orderBy: null, where: null },
    unfilteredTotal: null,
    error: null,
  });
  const [version, setVersion] = useState(0);
  // Mutable between renders: the cache, the pages on their way, and which query they belong to.
  const live = useRef({ cache: new PageCache(), inFlight: new Set<number>(), generation: 0, attempt: 0, query: shown.query });

  const fetchPage = useCallback(
    (page: number, query: RowQuery) =>
      bridge.call('layers/rows', { layerId, offset: page * PAGE_SIZE, limit: PAGE_SIZE, orderBy: query.orderBy, where: query.where }),
    [bridge, layerId],
  );

  const apply = useCallback(
    async (query: RowQuery): Promise<string | null> => {
      const attempt = ++live.current.attempt;
      let first: RowsPage;
      try {
        first = await fetchPage(0, query);
      } catch (err) {
        return attempt === live.current.attempt ? message(err) : null;
      }
      if (attempt !== live.current.attempt) return null; // overtaken by a newer query
      const cache = new PageCache();
      cache.put(0, first.rows);
      live.current = { ...live.current, cache, inFlight: new Set(), generation: live.current.generation + 1, query };
      setShown((s) => ({
        total: first.total,
        fields: first.fields,
        query,
        unfilteredTotal: query.where === null ? first.total : s.unfilteredTotal,
        error: null,
      }));
      setVersion((v) => v + 1);
      return null;
    },
    [fetchPage],
  );

  const ensure = useCallback(
    (first: number, last: number) => {
      const { cache, inFlight, generation, query } = live.current;
      for (const page of cache.missing(first, last)) {
        if (inFlight.has(page)) continue;
        inFlight.add(page);
        fetchPage(page, query).then(
          (answer) => {
            if (live.current.generation !== generation) return;
            inFlight.delete(page);
            cache.put(page, answer.rows);
            cache.trim(pageOf(first));
            setShown((s) => (s.total === answer.total && s.error === null ? s : { ...s, total: answer.total, error: null }));
            setVersion((v) => v + 1);
          },
          (err: unknown) => {
            if (live.current.generation !== generation) return;
            inFlight.delete(page);
            setShown((s) => ({ ...s, error: message(err) }));
          },
        );
      }
    },
    [fetchPage],
  );

  // The first page, with no sort or filter, when the table opens (the component is keyed by layer).
  useEffect(() => {
    void apply({ orderBy: null, where: null }).then((error) => error && setShown((s) => ({ ...s, error })));
  }, [apply]);

  // The layer's data changed (an edit, its undo): the same query again, over the new rows.
  const readKey = useRef(dataKey);
  useEffect(() => {
    if (readKey.current === dataKey) return;
    readKey.current = dataKey;
    void apply(live.current.query).then((error) => error && setShown((s) => ({ ...s, error })));
  }, [dataKey, apply]);

  const cache = live.current.cache;
  return {
    ...shown,
    version,
    rowAt: (index) => cache.rowAt(index),
    indexOfFid: (fid) => cache.indexOfFid(fid),
    fidsBetween: (a, b) => cache.fidsBetween(a, b),
    ensure,
    apply,
  };
}
