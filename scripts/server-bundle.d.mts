import type { BuildOptions } from 'esbuild';

export const root: string;
export const bundleOptions: BuildOptions;
export function serverExternals(): string[];
