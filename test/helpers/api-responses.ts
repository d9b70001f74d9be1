import { expect } from 'vitest';
import type { paths as PortalPaths } from '../../renderer/lib/api-types';
import type { paths as V1Paths } from './v1-api-types';

export type { PortalPaths, V1Paths };

/** A response whose body the caller typed (or left `unknown`): nothing is known of its status. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One documented answer of a route: its status and the body the OpenAPI document gives it. */
export interface Answer<S extends number, B> extends ApiResponse<B> {
  status: S;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `/customers/{id}` → `/customers/${string}`: every concrete path a template stands for. */
type Concrete<T extends string> = T extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${Concrete<Tail>}`
  : T;

type WithoutQuery<P extends string> = P extends `${infer Base}?${string}` ? Base : P;

type Segments<P extends string, Count extends unknown[] = []> = P extends `${string}/${infer Rest}`
  ? Segments<Rest, [...Count, unknown]>
  : Count['length'];

type IsUnion<T, All = T> = T extends unknown ? ([All] extends [T] ? false : true) : never;

/**
 * The template `P` was written from: the one it equals (`/customers/${id}` is `/customers/${string}`),
 * else the only one it fits with as many segments; never when none or several fit.
 */
export type TemplateOf<Paths, P extends string> = Exact<Paths, WithoutQuery<P>> extends infer E
  ? [E] extends [never]
    ? Single<Fitting<Paths, WithoutQuery<P>>>
    : Single<E>
  : never;

type Exact<Paths, P extends string> = {
  [K in keyof Paths & string]: P extends Concrete<K> ? (Concrete<K> extends P ? K : never) : never;
}[keyof Paths & string];

type Fitting<Paths, P extends string> = {
  [K in keyof Paths & string]: P extends Concrete<K> ? (Segments<K> extends Segments<P> ? K : never) : never;
}[keyof Paths & string];

type Single<K> = true extends IsUnion<K> ? never : K;

type BodyOf<R> = R extends { content: infer C }
  ? 'application/json' extends keyof C
    ? C['application/json']
    : string
  : string;

type Answers<Op> = Op extends { responses: infer Rs }
  ? { [S in keyof Rs & number]: Answer<S, BodyOf<Rs[S]>> }[keyof Rs & number]
  : never;

type Operation<Paths, M extends Method, P extends string> = TemplateOf<Paths, P> extends infer K extends keyof Paths
  ? Lowercase<M> extends keyof Paths[K]
    ? NonNullable<Paths[K][Lowercase<M>]>
    : never
  : never;

/**
 * The answers the OpenAPI document gives `method path`, one per status; a path or method it does not
 * document gives a response with an `unknown` body, which the test narrows or types itself.
 */
export type Typed<Paths, M extends Method, P extends string> = Answers<Operation<Paths, M, P>> extends infer A
  ? [A] extends [never]
    ? ApiResponse<unknown>
    : A
  : never;

/** What `expectStatus(res, status)` leaves of `res`: the answer documented for that status. */
export type WithStatus<R extends ApiResponse<unknown>, S extends number> = number extends R['status']
  ? R & { status: S }
  : [Extract<R, { status: S }>] extends [never]
    ? Answer<S, unknown>
    : Extract<R, { status: S }>;

/** Fails with the response's text unless it has `status`; narrows `res` to that status's answer. */
export function expectStatus<R extends ApiResponse<unknown>, S extends number>(
  res: R,
  status: S,
): asserts res is WithStatus<R, S> {
  expect(res.status, res.text).toBe(status);
}

type Success<R> = R extends Answer<infer S, unknown> ? (`${S}` extends `2${string}` ? R : never) : R;

/** The body of a successful (2xx) response; fails with the response's text otherwise. */
export function okBody<R extends ApiResponse<unknown>>(res: R): Success<R>['body'] {
  expect(res.status, res.text).toBeGreaterThanOrEqual(200);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}
