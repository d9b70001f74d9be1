import { expect } from 'vitest';
import type { z } from 'zod';
import type { paths as PortalPaths } from '../../renderer/lib/api-types';
import { ErrorBody as ErrorBodySchema } from '../../shared/schemas/common';
import type { paths as OtherPaths } from './other-api-types';
import type { paths as V1Paths } from './v1-api-types';

export type { PortalPaths, V1Paths };

/** A response whose body the caller typed (or left `unknown`): nothing is known of its status. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** The contract's error shape, for a response typed by hand that was refused. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

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
export type TemplateOf<Paths, P extends string> =
  Exact<Paths, WithoutQuery<P>> extends infer E
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

type ContentOf<R> = R extends { content: infer C }
  ? 'application/json' extends keyof C
    ? C['application/json']
    : string
  : string;

type Answers<Op> = Op extends { responses: infer Rs }
  ? { [S in keyof Rs & number]: Answer<S, ContentOf<Rs[S]>> }[keyof Rs & number]
  : never;

type Operation<Paths, M extends Method, P extends string> =
  TemplateOf<Paths, P> extends infer K extends keyof Paths
    ? Lowercase<M> extends keyof Paths[K]
      ? NonNullable<Paths[K][Lowercase<M>]>
      : never
    : never;

/**
 * The answers the OpenAPI document gives `method path`, one per status; a path or method it does not
 * document gives a response with an `unknown` body, which the test narrows or types itself.
 */
export type Typed<Paths, M extends Method, P extends string> =
  Answers<Operation<Paths, M, P>> extends infer A ? ([A] extends [never] ? ApiResponse<unknown> : A) : never;

/** A full path's answers by the OpenAPI document; a path it does not document gets `unknown`. */
export type TypedUrl<M extends Method, P extends string> = P extends `/api/portal/${string}/${infer Rest}`
  ? Typed<PortalPaths, M, `/${Rest}`>
  : P extends `/api/v1/${infer Rest}`
    ? Typed<V1Paths, M, `/${Rest}`>
    : Typed<OtherPaths, M, P>;

/**
 * What `expectStatus(res, status)` leaves of `res`: the answer documented for that status. A status
 * the document leaves out still has the contract's shape when it is an error; a success keeps the
 * documented successes' bodies.
 */
export type WithStatus<R extends Status, S extends number> = number extends R['status']
  ? R & { status: S } & (IsError<S> extends true
        ? unknown extends BodyOf<R>
          ? { body: ErrorBody }
          : unknown
        : unknown)
  : [Extract<R, { status: S }>] extends [never]
    ? Undocumented<R, S>
    : Extract<R, { status: S }>;

type IsError<S extends number> = `${S}` extends `4${string}` | `5${string}` ? true : false;
type Undocumented<R, S extends number> = IsError<S> extends true ? Failure<R> : Success<R>;

/** Any response with a status: the helpers' own, or one a test fetched itself. */
type Status = { status: number; text?: unknown };

/** The text of a response for a failure message, when it has one (a fetched Response's is a method). */
const textOf = (res: Status) => (typeof res.text === 'string' ? res.text : undefined);

/** Fails with the response's text unless it has `status`; narrows `res` to that status's answer. */
export function expectStatus<R extends Status, S extends number>(
  res: R,
  status: S,
): asserts res is WithStatus<R, S> {
  expect(res.status, textOf(res)).toBe(status);
}

/** The answers of `R` whose status starts with `First` (a response typed by the caller stays as it is). */
type Kept<R, First extends string> =
  R extends Answer<infer S, unknown>
    ? number extends S
      ? R
      : `${S}` extends `${First}${string}`
        ? R
        : never
    : R;
type Success<R> = Kept<R, '2'>;
/** A refusal: its documented errors, or the contract's error shape where nothing typed the body. */
type Failure<R> = R extends { status: infer S; body: infer B }
  ? number extends S
    ? unknown extends B
      ? R & { body: ErrorBody }
      : R
    : Kept<R, '4' | '5'>
  : R;

type BodyOf<R> = R extends { body: infer B } ? B : never;

/** `res` when it succeeded (2xx), narrowed to its documented successes; fails with its text otherwise. */
export function expectOk<R>(res: R): Success<R> {
  const { status } = res as Status;
  expect(status, textOf(res as Status)).toBeGreaterThanOrEqual(200);
  expect(status, textOf(res as Status)).toBeLessThan(300);
  return res as Success<R>;
}

/** The body of a successful (2xx) response; fails with the response's text otherwise. */
export function okBody<R>(res: R): BodyOf<Success<R>> {
  return (expectOk(res) as { body?: unknown }).body as BodyOf<Success<R>>;
}

/** `res` when it was refused (4xx or 5xx), narrowed to its documented errors; fails otherwise. */
export function expectError<R>(res: R): Failure<R> {
  expect((res as Status).status, textOf(res as Status)).toBeGreaterThanOrEqual(400);
  return res as Failure<R>;
}

/** The contract's error of a refused response whose body was typed otherwise, checked against its schema. */
export function errorOf(res: unknown): ErrorBody['error'] {
  return ErrorBodySchema.parse(expectError(res as Status & { body: unknown }).body).error;
}

/** The served OpenAPI document (/openapi.json) as far as the tests read into it. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
}

interface OpenApiOperation {
  tags?: string[];
  summary?: string;
  responses: Record<string, unknown>;
  parameters: Array<{ name: string; in: string }>;
  requestBody: {
    content: Record<string, { examples?: { example?: { value: Record<string, unknown> } } }>;
  };
}
