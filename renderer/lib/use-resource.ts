import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListPage } from './api';

export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
  /** Replaces the data with what a write returned, without a round trip. */
  set(data: T): void;
}

/** Loads once per `key` change; a slower earlier answer never overwrites a newer one. */
export function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [version, setVersion] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and version are the reload triggers by design
  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    loadRef.current().then(
      (data) => current && setState({ data, loading: false }),
      (error: Error) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const set = useCallback((data: T) => setState({ data, loading: false }), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, set };
}

export interface PagedList<T> {
  items: T[];
  error: Error | undefined;
  loading: boolean;
  hasMore: boolean;
  loadMore(): void;
  reload(): void;
}

/**
 * A cursor-paged list: the first page loads on every `key` change, "load more" appends the next
 * page. Only what the owner scrolled to is ever held, so 100,000 records cost what 25 cost.
 */
export function usePagedList<T>(
  loadPage: (cursor: string | undefined) => Promise<ListPage<T>>,
  key: string,
): PagedList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error>();
  const [version, setVersion] = useState(0);
  const generation = useRef(0);
  const loadRef = useRef(loadPage);
  loadRef.current = loadPage;

  const fetchPage = useCallback((after: string | undefined, append: boolean) => {
    const mine = ++generation.current;
    setLoading(true);
    setError(undefined);
    loadRef.current(after).then(
      (page) => {
        if (mine !== generation.current) return;
        setItems((previous) => (append ? [...previous, ...page.data] : page.data));
        setCursor(page.pagination.next_cursor);
        setHasMore(page.pagination.has_more);
        setLoading(false);
      },
      (failure: Error) => {
        if (mine !== generation.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and version are the reload triggers by design
  useEffect(() => {
    fetchPage(undefined, false);
  }, [key, version, fetchPage]);

  return {
    items,
    error,
    loading,
    hasMore,
    loadMore: () => {
      if (cursor && !loading) fetchPage(cursor, true);
    },
    reload: () => setVersion((v) => v + 1),
  };
}
