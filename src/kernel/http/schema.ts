import { Type, type IntegerOptions } from '@sinclair/typebox';

/**
 * A strict JSON integer for request bodies and responses. Elysia's `t.Integer` also accepts numeric strings
 * ("10" → 10); a JSON API must not coerce, so body schemas use this (query strings keep Elysia's coercing types).
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options);
