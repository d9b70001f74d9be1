export function isStale(output: string, sources: string[]): boolean;
