/** Hebrew summaries and descriptions of the operations, keyed by operationId. */
export const HE_OPERATIONS: Record<string, { summary: string; description: string }> = {};
