import { z } from 'zod';

/**
 * The OpenAPI media-type examples for a body (@fastify/swagger moves x-examples there). Not the
 * `examples` keyword: zod drops it from the input side of any schema that transforms its values.
 */
const mediaExamples = (example: unknown) => ({ 'x-examples': { example: { value: example } } });

/**
 * A request body schema whose example shows in Swagger UI. Shared body schemas have ids, so they
 * appear as a bare $ref, and @fastify/swagger deletes every keyword beside a $ref. The example
 * therefore sits on an intersection with an empty strict object, which accepts and returns exactly
 * what the schema does: zod refuses a key in an intersection only when neither side knows it.
 * In the document that object says `additionalProperties: true`; its own `false` would make
 * `allOf: [$ref, {}]` satisfiable by `{}` alone, and generated clients would refuse every body.
 */
export function withExample<T extends z.ZodType>(schema: T, example: z.input<T>) {
  const documentedOpen = z.strictObject({}).meta({ additionalProperties: true });
  return z.intersection(schema, documentedOpen).meta(mediaExamples(example));
}

/** The same for an optional body (an action that may be posted without one). */
export function optionalWithExample<T extends z.ZodType>(schema: T, example: z.input<T>) {
  return schema.nullish().meta(mediaExamples(example));
}
