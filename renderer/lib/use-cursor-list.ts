import { api, type ListPage, type portalUrl } from './api';
import { type PagedList, usePagedList } from './use-resource';

type ListQuery = NonNullable<Parameters<typeof portalUrl>[1]>;

/** A portal list endpoint, paged by cursor; a change in the filters starts again from the first page. */
export function useCursorList<T>(path: string, query: ListQuery = {}, limit = 50): PagedList<T> {
  return usePagedList(
    (cursor) => api.get<ListPage<T>>(path, { ...query, cursor, limit }),
    `${path}?${JSON.stringify(query)}`,
  );
}
