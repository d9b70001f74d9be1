import { z } from 'zod';

/**
 * The OpenAPI media-type examples for a body (@fastify/swagger moves x-examples there). Not the
 * `examples` keyword: zod drops it from the input side of any schema that transforms its values.
 */
const mediaExamples = (example: unknown) => ({ 'x-examples': { example: { value: example } } });

/** Marks the object that carries a body's example (withExample) in the generated schema. */
const EXAMPLE_CARRIER = 'x-example-carrier';

/**
 * A request body schema whose example shows in Swagger UI. Shared body schemas have ids, so they
 * appear as a bare $ref, and @fastify/swagger deletes every keyword beside a $ref. The example
 * therefore sits on an intersection with an empty strict object, which accepts and returns exactly
 * what the schema does: zod refuses a key in an intersection only when neither side knows it.
 * Once the example has moved to the media type, bareExampleBodies takes that object out of the
 * document again, so generated clients see the body's own schema and its additionalProperties: false.
 */
export function withExample<T extends z.ZodType>(schema: T, example: z.input<T>) {
  const carrier = z.strictObject({}).meta({ [EXAMPLE_CARRIER]: true });
  return z.intersection(schema, carrier).meta(mediaExamples(example));
}

type JsonSchema = { allOf?: JsonSchema[]; [keyword: string]: unknown };
type Document = {
  paths?: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
};

/** Replaces each request body built by withExample with the schema it wraps (see withExample). */
export function bareExampleBodies<D>(document: D): D {
  for (const methods of Object.values((document as Document).paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        const parts = media.schema?.allOf;
        if (!parts?.some((part) => part[EXAMPLE_CARRIER] === true)) continue;
        const own = parts.filter((part) => part[EXAMPLE_CARRIER] !== true);
        media.schema = own.length === 1 ? own[0] : { ...media.schema, allOf: own };
      }
    }
  }
  return document;
}

/** The same for an optional body (an action that may be posted without one). */
export function optionalWithExample<T extends z.ZodType>(schema: T, example: z.input<T>) {
  return schema.nullish().meta(mediaExamples(example));
}
